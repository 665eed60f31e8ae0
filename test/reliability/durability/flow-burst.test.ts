import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../../src/adapters/models/env-model-resolver.ts";
import { catalogOf } from "../../../src/engine/run-environment.ts";
import { overrideWiring } from "../../../src/wiring.ts";
import {
  admittedAtOf,
  eventsOf,
  flowWorkflow,
  maxOverlap,
  runningInterval,
  startFlowRun,
  waitForAll,
} from "../../support/flow-workflows.ts";

// Issue 28's burst, at full size: only under `npm run torture` (LITTLE_TORTURE_SEEDS ≥ 100), as it
// takes over a minute; `npm test` runs the small version (test/durable-objects/flow-control.test.ts).
// 40 runs of one key with limit 2 and an offline model latency of 300 ms: at no instant more than 2
// between RunStarted and their end, all complete, admitted in ack order; 10 runs of another key
// started meanwhile are not held up behind them.

const FULL = Number((env as unknown as Record<string, string>).LITTLE_TORTURE_SEEDS ?? "0") >= 100;
const WORKFLOW = flowWorkflow("flow.burst", { concurrency: { key: "{{ input.customerId }}", limit: 2 } });

beforeEach(() =>
  overrideWiring({
    models: new EnvModelResolver({ mode: "offline", secrets: {}, offlineLatencyMs: 300 }),
    workflows: catalogOf([WORKFLOW]),
  }),
);
afterEach(() => overrideWiring({}));

describe.skipIf(!FULL)("a burst of one key (torture)", () => {
  it("40 runs, limit 2, 300 ms model latency: never more than 2 at once, all complete in ack order; another key is not held up", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const busy = [];
    const other = [];
    for (let i = 0; i < 40; i++) {
      busy.push(await startFlowRun("flow.burst", `busy-${tag}`));
      if (i % 4 === 3) other.push(await startFlowRun("flow.burst", `other-${tag}`));
    }
    const started = Date.now();
    expect(
      await waitForAll(
        [...busy, ...other].map((r) => r.runId),
        600_000,
      ),
    ).toEqual(Array(50).fill("completed"));
    const busyEvents = await Promise.all(busy.map((r) => eventsOf(r.runId)));
    const intervals = busyEvents.map((e) => runningInterval(e)).filter((i) => i !== null);
    expect(intervals).toHaveLength(40);
    expect(maxOverlap(intervals)).toBeLessThanOrEqual(2);
    const admitted = busyEvents.map(admittedAtOf);
    expect([...admitted].sort((a, b) => a - b)).toEqual(admitted);
    // The other key's runs each waited only for their own key (limit 2, 10 runs): all ended well
    // before the busy key drained.
    const otherEnds = (await Promise.all(other.map((r) => eventsOf(r.runId)))).map((e) => runningInterval(e)?.end ?? 0);
    const busyEnd = Math.max(...intervals.map((i) => i.end));
    expect(Math.max(...otherEnds)).toBeLessThan(busyEnd);
    console.log(
      JSON.stringify({
        item: "flow-burst",
        runs: 40,
        limit: 2,
        latencyMs: 300,
        drainMs: busyEnd - Math.min(...intervals.map((i) => i.start)),
        otherKeyLastEndBeforeBusyMs: busyEnd - Math.max(...otherEnds),
        waitedMs: Date.now() - started,
      }),
    );
  }, 600_000);
});
