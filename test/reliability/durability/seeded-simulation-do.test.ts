/**
 * Issue #10, item 4 — seeded simulation against the real run object (fewer seeds than in memory:
 * each is a full Durable Object run). Each seed takes the golden run (planner, ai.generate,
 * tool.call, code.run with a fixer, a 16-branch fan-out) and mixes: an abort of the object at a
 * seeded event boundary (after the event, or just before an answer is logged), model 429s and 500s
 * at seeded calls, three duplicate starts of the same run id fired concurrently with status and
 * event reads, and more starts and reads racing the alarms. Pass: exactly one RunRequested, seq
 * dense, nothing duplicated, the run completes with the golden log (model.failed events aside),
 * every side-effect key applied once (only the in-flight one delivered again, same key), and the
 * same seed gives the same log digest. Seed count: max(2, LITTLE_TORTURE_SEEDS / 5).
 */

import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { APICallError } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { catalogOf } from "../../../src/engine/run-environment.ts";
import { digestJson } from "../../../src/json/digest.ts";
import type { CallableModel, ModelResolver } from "../../../src/ports/model-resolver.ts";
import type { RunEvent } from "../../../src/ports/run-events.ts";
import { overrideWiring } from "../../../src/wiring.ts";
import { rawRunStub, runStub } from "../../support/drive.ts";
import { type GoldenOutcome, maskKeys, runGolden } from "./support/golden-do-run.ts";
import { GOLDEN_INPUT, GOLDEN_WORKFLOW_ID, goldenRig } from "./support/golden-workflow.ts";
import { ManualClock } from "./support/log-driver.ts";
import { duplicatedEvents, isDense, maskEvents } from "./support/masked-events.ts";
import { Prng, tortureSeeds } from "./support/prng.ts";

const SEEDS = Math.max(2, Math.ceil(tortureSeeds(env as { LITTLE_TORTURE_SEEDS?: string }) / 5));
const ENDED = new Set(["completed", "failed", "cancelled"]);

afterEach(() => overrideWiring({}));

let golden: GoldenOutcome;
beforeAll(async () => {
  golden = await runGolden("run_golden_do_sim");
}, 120_000);

/** Model calls (1-based, across the run) that fail with the given status before reaching the model. */
function faultyModels(inner: ModelResolver, failAt: ReadonlyMap<number, number>, seen: { calls: number; injected: number }): ModelResolver {
  return {
    resolve: (request) => {
      const resolved = inner.resolve(request);
      const base = resolved.model as MockLanguageModelV4;
      const model = new MockLanguageModelV4({
        provider: base.provider,
        modelId: base.modelId,
        doGenerate: async (options) => {
          seen.calls += 1;
          const status = failAt.get(seen.calls);
          if (status !== undefined) {
            seen.injected += 1;
            throw new APICallError({
              message: `simulated ${status}`,
              url: "https://model.invalid",
              requestBodyValues: {},
              statusCode: status,
              isRetryable: true,
            });
          }
          return base.doGenerate(options);
        },
      });
      return { ...resolved, model: model as CallableModel };
    },
  };
}

type SeedRun = {
  events: RunEvent[];
  deliveries: Map<string, number>;
  digest: string;
  starts: number;
  reads: number;
  faults: number;
  crashed: boolean;
  /** The abort hit just before an answer was logged: that one call may be made again. */
  beforeAnswer: boolean;
};

async function runSeed(seed: number, runId: string): Promise<SeedRun> {
  const prng = new Prng(seed);
  const boundary = prng.int(2, golden.events.length - 1);
  const beforeAnswer = prng.chance(0.5);
  // Model calls 1..5 exist in the golden run; a call fails at most twice in a row, so its third attempt answers.
  const failAt = new Map<number, number>();
  for (let i = 0; i < prng.int(0, 2); i++) failAt.set(prng.int(1, 5) + i, prng.pick([429, 500]));
  const seen = { calls: 0, injected: 0 };
  const rig = goldenRig();
  let crashed = false;
  let durable = 0;
  overrideWiring({
    models: faultyModels(rig.models, failAt, seen),
    workflows: catalogOf([rig.catalogEntry]),
    clock: new ManualClock(),
    afterAppend: (events, ctx) => {
      durable = Math.max(durable, ...events.map((e) => e.seq));
      if (!beforeAnswer && !crashed && durable >= boundary) {
        crashed = true;
        ctx.abort();
      }
    },
    beforeAppend: (events, ctx) => {
      if (
        beforeAnswer &&
        !crashed &&
        durable >= boundary - 1 &&
        events.some((e) => e.type === "harness.model.responded" || e.type === "StepSucceeded")
      ) {
        crashed = true;
        ctx.abort();
      }
    },
  });
  const request = { runId, workflowId: GOLDEN_WORKFLOW_ID, input: GOLDEN_INPUT, trigger: { kind: "http" as const } };
  let starts = 0;
  let reads = 0;
  const quietly = <T>(p: Promise<T>) => p.catch(() => undefined);
  // A webhook delivered three times at once, with a dashboard polling.
  const first = await Promise.all([
    quietly(runStub(runId).start(request)),
    quietly(runStub(runId).start(request)),
    quietly(runStub(runId).start(request)),
    quietly(runStub(runId).status()),
    quietly(runStub(runId).events({ limit: 5 })),
  ]);
  starts += 3;
  reads += 2;
  expect(
    first.slice(0, 3).filter((r) => (r as { outcome?: string } | undefined)?.outcome === "created"),
    `seed ${seed}`,
  ).toHaveLength(1);
  for (let alarm = 0; alarm < 40; alarm++) {
    // More duplicates and reads race the alarm in flight.
    const racing = prng.chance(0.5);
    await Promise.all([
      quietly(runDurableObjectAlarm(rawRunStub(runId))),
      ...(racing
        ? [
            quietly(runStub(runId).start(request)),
            quietly(runStub(runId).status()),
            quietly(runStub(runId).events({ after: 3, limit: 10 })),
          ]
        : []),
    ]);
    if (racing) {
      starts += 1;
      reads += 2;
    }
    const view = await runStub(runId).status();
    if (ENDED.has(view.status)) break;
  }
  const events = await runStub(runId).events({ limit: 10_000 });
  const masked = maskEvents(events).map((e, i) => ({ ...e, at: events[i]?.at }));
  return {
    events,
    deliveries: maskKeys(rig.sink.deliveries, runId),
    digest: digestJson(masked),
    starts,
    reads,
    faults: seen.injected,
    crashed,
    beforeAnswer,
  };
}

describe("seeded simulation (item 4), against the run object", () => {
  it(`${SEEDS} seeds: aborts, 429s/500s, duplicate and racing starts and reads — one run, golden log, keys once, same digest`, async () => {
    const figure = { seeds: 0, aborts: 0, abortsBeforeAnswer: 0, modelFaults: 0, starts: 0, reads: 0, redelivered: 0 };
    for (let seed = 1; seed <= SEEDS; seed++) {
      const a = await runSeed(seed, `run_dosim_${seed}_a`);
      const label = `seed ${seed}`;
      expect(
        a.events.filter((e) => e.type === "RunRequested"),
        label,
      ).toHaveLength(1);
      expect(isDense(a.events), label).toBe(true);
      expect(duplicatedEvents(a.events), label).toEqual([]);
      expect(a.events.at(-1)?.type, label).toBe("RunCompleted");
      // Model failures are logged as they happen; without them the log is the golden one.
      const withoutFailures = a.events.filter((e) => e.type !== "harness.model.failed").map((e, i) => ({ ...e, seq: i + 1 }));
      expect(maskEvents(withoutFailures), label).toEqual(maskEvents(golden.events));
      const repeated = [...a.deliveries].filter(([, n]) => n > 1);
      expect(repeated.length, label).toBeLessThanOrEqual(a.beforeAnswer ? 1 : 0);
      for (const [key, n] of a.deliveries) {
        expect(golden.deliveries.has(key), `${label}: ${key}`).toBe(true);
        expect(n, `${label}: ${key}`).toBeLessThanOrEqual(2);
      }
      const b = await runSeed(seed, `run_dosim_${seed}_b`);
      expect(b.digest, `${label}: the same seed gives the same log`).toBe(a.digest);
      figure.seeds += 1;
      figure.aborts += a.crashed ? 1 : 0;
      figure.abortsBeforeAnswer += a.crashed && a.beforeAnswer ? 1 : 0;
      figure.modelFaults += a.faults;
      figure.starts += a.starts;
      figure.reads += a.reads;
      figure.redelivered += repeated.length;
    }
    expect(figure.aborts).toBeGreaterThan(0);
    console.log(JSON.stringify({ item: 4, world: "durable-object", ...figure }));
  }, 900_000);
});
