import { APICallError } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { z } from "zod";
import { MemoryBlobStore } from "../../../../src/adapters/memory/memory-blob-store.ts";
import { MemoryDefinitionApprovals } from "../../../../src/adapters/memory/memory-definition-approvals.ts";
import { MemoryRunIndex } from "../../../../src/adapters/memory/memory-run-index.ts";
import { MemorySealedRows } from "../../../../src/adapters/memory/memory-sealed-rows.ts";
import { MemoryVersionStore } from "../../../../src/adapters/memory/memory-version-store.ts";
import { SealedSecretStore } from "../../../../src/adapters/secrets/sealed-secret-store.ts";
import { driveRun } from "../../../../src/engine/drive-run.ts";
import { catalogOf } from "../../../../src/engine/run-environment.ts";
import { DEFAULT_RUN_QUOTAS } from "../../../../src/engine/run-quotas.ts";
import { deriveRunState } from "../../../../src/engine/run-state.ts";
import { digestJson } from "../../../../src/json/digest.ts";
import { NO_CHILD_RUNS } from "../../../../src/ports/child-runs.ts";
import type { RunEvent } from "../../../../src/ports/run-events.ts";
import { defineWorkflow } from "../../../../src/sdk/define-workflow.ts";
import { RunTerminatedError } from "../../../../src/sdk/errors/run-terminated-error.ts";
import { model } from "../../../../src/sdk/model.ts";
import { tool } from "../../../../src/sdk/tool.ts";
import { promptText, result } from "../../../support/scripted-models.ts";
import { CountingSink } from "./counting-sink.ts";
import { CrashingLog, type CrashPoint, SimulatedCrash } from "./crashing-log.ts";
import { ManualClock, RefusingSandbox, requestEvent } from "./log-driver.ts";
import { hashUnit, Prng } from "./prng.ts";

/** What a seed injected and how its run ended. */
export type SimOutcome = {
  readonly seed: number;
  readonly events: RunEvent[];
  readonly digest: string;
  readonly sink: CountingSink;
  /** Tool keys delivered but not settled in the log when a crash hit (each may be delivered again). */
  readonly inFlightAtCrash: Map<string, number>;
  readonly faults: {
    crashes: number;
    model429: number;
    model500: number;
    hangs: number;
    duplicateStarts: number;
    concurrentReads: number;
    cancelled: boolean;
    /** Slices that threw something other than a crash (the run object retries them, then fails the run). */
    driveErrors: number;
  };
  readonly slices: number;
};

const OBJECT_OUT = { type: "object", properties: { note: { type: "string" } }, required: ["note"] };

/** The seed's workflow: 3–7 steps of ai.generate, tool.call and fan-out, a random DAG with retries and timeouts. */
function planFor(prng: Prng, timeouts: boolean) {
  const count = prng.int(3, 7);
  const steps: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const id = `s${i}`;
    const needs = steps.filter(() => prng.chance(0.4)).map((s) => s.id as string);
    const retry = prng.chance(0.7) ? { retry: { maxAttempts: prng.int(2, 4), backoffMs: prng.pick([0, 100, 2_500]) } } : {};
    const kind = prng.pick(["ai.generate", "tool.call", "tool.call", "fan-out"]);
    if (kind === "ai.generate")
      steps.push({
        id,
        uses: "ai.generate",
        needs,
        with: { model: "worker", prompt: `Note step ${id} for {{ input.ticket }}.` },
        output: { mode: "object", schema: OBJECT_OUT },
        ...retry,
      });
    else {
      const timeout = timeouts && prng.chance(0.5) ? { timeoutMs: prng.pick([15, 40]) } : {};
      // Step timeouts run on wall-clock timers (AbortSignal.timeout), not the injected clock, so two
      // at once could fire in either order: seeds with timeouts run one call at a time.
      const forEach = kind === "fan-out" ? { forEach: { items: "{{ input.items }}", maxConcurrency: timeouts ? 1 : prng.int(1, 3) } } : {};
      // Only a step with a timeout may hang: nothing else would ever end the call.
      const mayHang = "timeoutMs" in timeout;
      steps.push({
        id,
        uses: "tool.call",
        needs,
        with: { tool: "effect", input: { step: id, item: kind === "fan-out" ? "{{ item }}" : "-", mayHang } },
        output: { mode: "json" },
        ...retry,
        ...timeout,
        ...forEach,
      });
    }
  }
  // One terminal step: a join on every step nothing else needs.
  const needed = new Set(steps.flatMap((s) => s.needs as string[]));
  steps.push({
    id: "end",
    uses: "tool.call",
    needs: steps.map((s) => s.id as string).filter((id) => !needed.has(id)),
    with: { tool: "effect", input: { step: "end", item: "-", mayHang: false } },
    output: { mode: "json" },
  });
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "sim.run", version: "0.1.0" },
    input: {
      schema: {
        type: "object",
        properties: { ticket: { type: "string" }, items: { type: "array", items: { type: "string" } } },
        required: ["ticket", "items"],
      },
    },
    output: { schema: true },
    permissions: { models: ["worker"], tools: ["effect"], secrets: [], network: [] },
    steps,
  };
}

/**
 * One seed, in memory: the seed's workflow driven slice by slice over a crashing log with a manual
 * clock, model 429s and 500s, tools that hang past their step's timeout, duplicate starts,
 * status reads and sometimes a cancel arriving mid-slice. Everything derives from the seed.
 */
export async function simulate(seed: number): Promise<SimOutcome> {
  const prng = new Prng(seed);
  const runId = `run_sim_${seed}`;
  const timeouts = prng.chance(0.4);
  const lwir = planFor(prng, timeouts);
  const clock = new ManualClock();
  const crashes: CrashPoint[] = Array.from({ length: prng.int(0, 3) }, () => ({
    append: prng.int(2, 40),
    when: prng.pick(["before", "after"] as const),
  }));
  const cancelAt = prng.chance(0.1) ? prng.int(3, 30) : null;
  const startsAt = new Set(Array.from({ length: prng.int(0, 3) }, () => prng.int(1, 30)));
  const readsAt = new Set(Array.from({ length: prng.int(0, 4) }, () => prng.int(1, 30)));
  const faults = {
    crashes: 0,
    model429: 0,
    model500: 0,
    hangs: 0,
    duplicateStarts: 0,
    concurrentReads: 0,
    cancelled: false,
    driveErrors: 0,
  };
  const sink = new CountingSink();
  const promptSeen = new Map<string, number>();

  const worker = new MockLanguageModelV4({
    provider: "mock",
    modelId: "worker",
    doGenerate: async (options) => {
      const text = promptText(options);
      const nth = (promptSeen.get(text) ?? 0) + 1;
      promptSeen.set(text, nth);
      const roll = hashUnit(seed, `model:${text}:${nth}`);
      if (roll < 0.15 || (roll < 0.25 && nth === 1)) {
        const status = roll < 0.08 ? 429 : 500;
        if (status === 429) faults.model429 += 1;
        else faults.model500 += 1;
        throw new APICallError({
          message: `simulated ${status}`,
          url: "https://model.invalid/v1",
          requestBodyValues: {},
          statusCode: status,
          isRetryable: true,
        });
      }
      return result([{ type: "text", text: JSON.stringify({ note: `seed ${seed}` }) }]);
    },
  });
  const effect = tool({
    description: "A side effect keyed by its idempotency key",
    inputSchema: z.object({ step: z.string(), item: z.string(), mayHang: z.boolean() }),
    execute: async (
      { step, item, mayHang }: { step: string; item: string; mayHang: boolean },
      options: { toolCallId?: string; abortSignal?: AbortSignal },
    ) => {
      const key = options.toolCallId ?? "?";
      // A call from a slice that crashed never reaches the world: its process is gone.
      if (options.abortSignal?.aborted) throw new SimulatedCrash(-1, "after");
      if (mayHang && hashUnit(seed, `hang:${key}`) < 0.3) {
        faults.hangs += 1;
        const signal = options.abortSignal;
        await new Promise((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason), { once: true }));
      }
      sink.deliver(key);
      return { done: `${step}/${item}` };
    },
  });
  const definition = defineWorkflow({
    id: "sim.run",
    description: "A seeded simulation run.",
    input: z.object({ ticket: z.string(), items: z.array(z.string()) }),
    output: { mode: "json" },
    models: [model(worker, { description: "answers notes", id: "worker" })],
    planner: { model: worker, system: "unused: pinned LWIR" },
    tools: { effect },
    maxConcurrency: timeouts ? 1 : prng.int(2, 4),
  });
  const input = { ticket: `T-${seed}`, items: Array.from({ length: prng.int(1, 4) }, (_, i) => `i${i}`) };

  const log = new CrashingLog(runId, clock, crashes);
  // The run object's start: idempotent, so a duplicate webhook finds the run and adds nothing.
  const start = async () => {
    if ((await log.base.page({ after: 0, limit: 1 })).length === 0) await log.base.append([requestEvent("sim.run", input, lwir)]);
  };
  await start();
  const stores = {
    versions: new MemoryVersionStore(),
    runs: new MemoryRunIndex(),
    blobs: new MemoryBlobStore(),
    approvals: new MemoryDefinitionApprovals(),
    secrets: new SealedSecretStore(new MemorySealedRows(), undefined),
    quotas: DEFAULT_RUN_QUOTAS,
    children: NO_CHILD_RUNS,
  };
  const inFlightAtCrash = new Map<string, number>();
  let slices = 0;
  let driveFailures = 0;
  for (; slices < 200; slices++) {
    const controller = new AbortController();
    log.onAppended = (n) => {
      if (startsAt.has(n)) {
        startsAt.delete(n);
        faults.duplicateStarts += 1;
        void start();
      }
      if (readsAt.has(n)) {
        readsAt.delete(n);
        faults.concurrentReads += 1;
        void log.base.all().then(deriveRunState);
      }
      if (cancelAt === n && !faults.cancelled) {
        faults.cancelled = true;
        // RunObject.cancel: append RunCancelled, abort the slice in flight.
        // A cancel that arrives after the run ended changes nothing (RunObject.cancel checks first).
        log.base.append([{ type: "RunCancelled", payload: { reason: "simulated cancel" } }]).catch((error: unknown) => {
          if (!(error instanceof RunTerminatedError)) throw error;
        });
        controller.abort(new Error("run cancelled"));
      }
    };
    const incarnation = log.incarnation(() => {
      controller.abort(new SimulatedCrash(log.appends, "before"));
      markInFlight(runId, sink, log.base, inFlightAtCrash);
    });
    let yielded = false;
    let wakeAt: number | undefined;
    try {
      const r = await driveRun({
        runId,
        log: incarnation,
        ...stores,
        sandbox: new RefusingSandbox(),
        models: { resolve: () => ({ model: worker, offline: false }) },
        clock,
        workflows: catalogOf([{ definition, tools: {} }]),
        sleep: async (ms) => clock.advance(ms),
        sliceMs: 10_000,
        signal: controller.signal,
      });
      yielded = r.yielded;
      wakeAt = r.wakeAt;
      driveFailures = 0;
    } catch (error) {
      if (!(error instanceof SimulatedCrash)) {
        // What RunObject.onDriveError does: retry on the next alarm; the 5th failure in a row fails the run.
        faults.driveErrors += 1;
        driveFailures += 1;
        if (driveFailures >= 5 && !deriveRunState(await log.base.all()).terminal)
          await log.base.append([{ type: "RunFailed", payload: { causeCode: "internal_error", message: String(error) } }]);
      }
    }
    // Let the dead slice's abandoned calls settle before the next incarnation starts.
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (deriveRunState(await log.base.all()).terminal) break;
    if (yielded && wakeAt !== undefined) clock.set(Math.max(clock.now(), wakeAt));
  }
  faults.crashes = log.crashes;
  const events = await log.base.all();
  return { seed, events, digest: digestJson(events), sink, inFlightAtCrash, faults, slices };
}

/** At a crash: every delivered tool key whose attempt has no settling event yet may be delivered again. */
function markInFlight(runId: string, sink: CountingSink, base: CrashingLog["base"], inFlight: Map<string, number>): void {
  // Both read now, at the crash: the log's rows are copied synchronously by all().
  const delivered = [...sink.deliveries.keys()];
  void base.all().then((events) => {
    const settled = new Set(
      events
        .filter((e) => e.type === "StepSucceeded" || e.type === "StepRetried" || e.type === "StepFailed")
        .map((e) => {
          const p = e.payload as { stepPath: string; attempt: number };
          return `${runId}:${p.stepPath}:a${p.attempt}`;
        }),
    );
    for (const key of delivered) if (!settled.has(key)) inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
  });
}
