/**
 * Reliability item 12, interleaving. Against one section run per seed, while model calls are
 * pending (a scripted model that stays in flight 20–80 ms per call, seeded): concurrent duplicate
 * starts, triggers (keys sent up to 3 times, keyless ones), reads, cancels, and 2–3 concurrent
 * decisions per approval (sometimes approve and deny at once), in seeded orders through the
 * Worker's real fetch handler. Pass: no lost update (every accepted trigger queued exactly once,
 * one occurrence per key), an accepted cancel leaves RunCancelled last and alone, no step attempt
 * started twice, each tool idempotency key executed at most once at the counting sink, at most
 * one decision per approval (the one answered `created`), seq dense, the run index (what
 * `GET /v1/runs` serves) ends `cancelled` like the run, no 5xx. Seeds:
 * LITTLE_TORTURE_SEEDS.
 */
import { env } from "cloudflare:workers";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { catalogOf } from "../../../src/engine/run-environment.ts";
import { overrideWiring } from "../../../src/wiring.ts";
import { runStub } from "../../support/drive.ts";
import { hashUnit } from "../durability/support/prng.ts";
import { tortureSeeds } from "../security/support/random.ts";
import { runScenario } from "./support/interleave-scenario.ts";
import { APPROVAL_PREFIX, interleavingWorkflow, modelCalls, sink, slowModel } from "./support/interleaving-workflow.ts";
import { checkScenario } from "./support/log-invariants.ts";

const SEEDS = tortureSeeds();
const totals = {
  seeds: 0,
  operations: 0,
  whilePending: 0,
  midRunCancels: 0,
  maxBurst: 0,
  acceptedTriggers: 0,
  coalescedRetries: 0,
  decisions: 0,
  cancelled: 0,
  sinkRuns: 0,
  violations: 0,
};

beforeEach(() =>
  overrideWiring({
    models: slowModel((prompt) => 20 + Math.floor(hashUnit(prompt.length, prompt) * 60)),
    workflows: catalogOf([interleavingWorkflow]),
  }),
);
afterEach(() => overrideWiring({}));
afterAll(() => {
  console.log(
    `[item 12] seeds ${totals.seeds}, concurrent operations ${totals.operations} (${totals.whilePending} answered while a model call was pending; largest burst ${totals.maxBurst}), accepted triggers ${totals.acceptedTriggers} (+${totals.coalescedRetries} retries coalesced), approval decisions ${totals.decisions}, runs cancelled ${totals.cancelled} (${totals.midRunCancels} mid-run, the rest once idle), sink executions ${totals.sinkRuns}; lost updates, double dispatches, double decisions, events after cancel, seq gaps, unexpected answers: ${totals.violations}`,
  );
});

describe("interleaving (item 12)", () => {
  for (let seed = 1; seed <= SEEDS; seed++) {
    it(`seed ${seed}: concurrent start, trigger, approval and cancel calls lose nothing and dispatch nothing twice`, async () => {
      const { runId, ops, bursts } = await runScenario(seed);
      const ended = await runStub(runId, "dev").status();
      expect(ended.status, runId).toBe("cancelled");
      const events = await runStub(runId, "dev").events({ limit: 10_000 });
      const verdict = checkScenario(ops, events);
      const keys = [...sink.deliveries].filter(([key]) => key.startsWith(`${runId}:`));
      const repeatedKeys = keys.filter(([, n]) => n > 1).map(([key, n]) => `${key} ×${n}`);
      const prompts = [...modelCalls].filter(([prompt]) => prompt.includes(runId));
      const thinkStarts = events.filter((e) => e.type === "StepStarted" && e.payload.stepPath.endsWith("/think")).length;
      const modelCallCount = prompts.reduce((n, [, c]) => n + c, 0);
      // A text that needs approval reaches the sink only after an approval of its step.
      const texts = new Map<string, string>();
      for (const e of events) {
        if (e.type === "RunRequested") texts.set("o1", (e.payload.input as { text: string }).text);
        if (e.type === "OccurrenceQueued") texts.set(e.payload.occurrenceId, (e.payload.input as { text: string }).text);
      }
      const approvedPaths = new Set<string>();
      const requested = new Map<string, string>();
      for (const e of events) {
        if (e.type === "ApprovalRequested") requested.set(e.payload.approvalId, e.payload.stepPath);
        if (e.type === "ApprovalDecided" && e.payload.decision === "approved")
          approvedPaths.add(requested.get(e.payload.approvalId) ?? "?");
      }
      const unapproved = keys
        .map(([key]) => key.slice(runId.length + 1).replace(/:a\d+$/, ""))
        .filter((path) => texts.get(path.split("/")[0] ?? "")?.startsWith(APPROVAL_PREFIX) && !approvedPaths.has(path))
        .map((path) => `sink ran unapproved at ${path}`);
      const pendingOps = ops.filter((o) => o.whilePending).length;
      // What GET /v1/runs serves: an index write landing after the cancel's would be a lost update.
      const indexRow = await env.DB.prepare("SELECT status FROM runs WHERE tenant = 'dev' AND run_id = ?")
        .bind(runId)
        .first<{ status: string }>();
      const violations = [
        ...verdict.lostUpdates,
        ...verdict.duplicateQueued,
        ...verdict.splitKeys,
        ...verdict.doubleStarts,
        ...verdict.afterCancel,
        ...verdict.seqGaps,
        ...verdict.doubleDispatch,
        ...verdict.doubleDecisions,
        ...verdict.unexpectedAnswers,
        ...repeatedKeys,
        ...unapproved,
        ...(indexRow?.status === "cancelled" ? [] : [`run index says ${indexRow?.status}, the run is cancelled`]),
        ...(modelCallCount > thinkStarts ? [`${modelCallCount} model calls for ${thinkStarts} think attempts`] : []),
      ];
      totals.seeds++;
      totals.operations += verdict.operations;
      totals.whilePending += pendingOps;
      if (ops.some((o) => o.kind === "cancel" && o.phase !== "final" && o.status === 200)) totals.midRunCancels++;
      totals.maxBurst = Math.max(totals.maxBurst, ...bursts);
      totals.acceptedTriggers += verdict.acceptedTriggers;
      totals.coalescedRetries += verdict.coalescedRetries;
      totals.decisions += verdict.decisions;
      totals.cancelled++;
      totals.sinkRuns += keys.length;
      totals.violations += violations.length;
      console.log(
        `[item 12 seed ${seed}] operations ${verdict.operations} (${pendingOps} while a model call was pending) in bursts of ${bursts.join("/")}, accepted triggers ${verdict.acceptedTriggers} (+${verdict.coalescedRetries} coalesced), decisions ${verdict.decisions}, events ${events.length}, sink executions ${keys.length}; violations ${violations.length}`,
      );
      expect(violations).toEqual([]);
    }, 60_000);
  }
});
