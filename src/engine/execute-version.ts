import { appendEvents, type HarnessContext } from "../harness/harness-context.ts";
import { PauseYield } from "../harness/pause-yield.ts";
import { lockHash as lockHashOf } from "../identity/compiler-lock.ts";
import type { DefinitionCapabilities } from "../identity/definition-snapshot.ts";
import { contentAddress } from "../identity/workflow-version.ts";
import type { LockedVersion } from "../lwir/register-workflow-version.ts";
import type { LwirStep } from "../lwir/types.ts";
import type { NewRunEvent } from "../ports/run-events.ts";
import { resolveRecorded } from "./blob-refs.ts";
import { runFanOut } from "./fan-out.ts";
import { HeldEvents } from "./held-events.ts";
import { reusedResult } from "./memo/reuse-step.ts";
import type { RegisteredWorkflow, SliceEnvironment } from "./run-environment.ts";
import { RunFailure } from "./run-failure.ts";
import type { RunState } from "./run-state.ts";
import { runStep } from "./run-step.ts";
import { skipReason } from "./steps/decision.ts";
import type { StepAttempt } from "./steps/step-context.ts";
import { VersionProgress } from "./version-progress.ts";

/** Steps in flight at once unless the definition says otherwise (production allows 6 connections per invocation). */
export const DEFAULT_MAX_CONCURRENCY = 6;

type ExecuteArgs = {
  env: SliceEnvironment;
  ctx: HarnessContext;
  workflow: RegisteredWorkflow;
  capabilities: DefinitionCapabilities;
  locked: LockedVersion;
  input: unknown;
  cycle: number;
  state: RunState;
  /** Prefix of every step path: a section's occurrence (`o2/`) runs the same steps under its own paths. */
  scope?: string;
  /** Live tools described in this execution (step-context.ts); executeVersion makes the map when not given. */
  liveTools?: StepAttempt["liveTools"];
};

type Settled = { id: string; output?: unknown; error?: unknown };

/**
 * Executes a locked version: every step whose `needs` are met runs, up to `maxConcurrency` at once,
 * so a run's wall time approaches its critical path. Before any step runs the lock is verified
 * against the version (fail closed on tampering); a step with a recorded `StepSucceeded` never runs again.
 * The first failure aborts the steps in flight and fails the run. Returns the terminal step's output.
 *
 * A step that finishes while it is the only one in flight leaves its `StepSucceeded` held for the
 * next append here (the next step's start, or a skip), so a chain costs one synced write per step;
 * whatever is held is appended on its own before waiting on steps in flight, failing or returning.
 */
export async function executeVersion(given: ExecuteArgs): Promise<unknown> {
  const args: ExecuteArgs = { ...given, liveTools: given.liveTools ?? new Map() };
  const { ctx, locked } = args;
  const progress = new VersionProgress(locked.version.lwir.steps, args.cycle, args.scope);
  const maxConcurrency = args.workflow.definition.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY;
  // Once per slice: the version in hand is immutable, so checking it again before every step
  // would only re-canonicalize the same document (O(steps × size) on a large LWIR).
  verifyLock(locked);
  const abort = new AbortController();
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, abort.signal]) : abort.signal;
  const running = new Map<string, Promise<Settled>>();
  // Only the step finishing now is in flight: nothing else can append or call until we go on.
  const held = new HeldEvents(() => running.size <= 1);
  let failure: unknown = null;
  while (!progress.allSettled()) {
    if (failure === null) await startReady(args, progress, running, signal, maxConcurrency, held);
    if (running.size === 0) {
      // Paused, and the steps in flight have finished: the slice yields until the resume.
      if (failure === null && ctx.pause?.aborted) failure = new PauseYield();
      // Skipping or replaying may have made more steps ready; go round again unless nothing can move.
      if (progress.steps.some((s) => progress.ready(s)) && failure === null) continue;
      break;
    }
    // Never hold a result while another step may run on for long.
    if (running.size > 1) await held.flush(ctx);
    const settled = await Promise.race(running.values());
    running.delete(settled.id);
    if (running.size > 0 || settled.error !== undefined || failure !== null) await held.flush(ctx);
    if (settled.error !== undefined) {
      if (failure === null) {
        failure = settled.error;
        // A pause stops only what would start: the steps in flight finish and are recorded.
        if (!(settled.error instanceof PauseYield)) abort.abort(settled.error);
      }
      continue;
    }
    progress.complete(progress.byId.get(settled.id) as LwirStep, settled.output);
  }
  await held.flush(ctx);
  if (failure !== null) throw failure;
  if (!progress.allSettled()) throw new RunFailure("internal_error", "Some steps could not be scheduled (their needs never completed)");
  return progress.terminalOutput();
}

/**
 * Starts every step whose needs are met, up to `maxConcurrency` in flight; a step settled in an
 * earlier slice is taken from the log instead, in the same order it happened.
 */
async function startReady(
  args: ExecuteArgs,
  progress: VersionProgress,
  running: Map<string, Promise<Settled>>,
  signal: AbortSignal,
  maxConcurrency: number,
  held: HeldEvents,
): Promise<void> {
  const { ctx, state } = args;
  // Paused: no step starts (nor is replayed) in this slice; the resume's slice takes them all.
  if (ctx.pause?.aborted) return;
  for (const step of progress.steps) {
    if (running.size >= maxConcurrency) break;
    if (running.has(step.id) || !progress.ready(step)) continue;
    const stepPath = progress.pathOf(step);
    if (state.stepOutputs.has(stepPath)) {
      progress.complete(step, await resolveRecorded(state.stepOutputs.get(stepPath), args.env.blobs));
      continue;
    }
    if (state.skipped.has(stepPath)) {
      progress.skipped.add(step.id);
      continue;
    }
    const reason = skipReason(step, progress.byId, progress.outputs, progress.skipped);
    if (reason !== null) {
      await appendEvents(ctx, [...held.take(), { type: "StepSkipped", payload: { stepPath, reason } }]);
      progress.skipped.add(step.id);
      continue;
    }
    // Once per step: its needs are met and it takes a place among the steps in flight. It is
    // logged in the same batch as the step's first StepStarted (one sync, same order), after any
    // held StepSucceeded: the step appends them synchronously when called below, before any await.
    const scheduling: NewRunEvent[] = state.scheduled.has(stepPath) ? [] : [{ type: "StepScheduled", payload: { stepPath } }];
    // A restart or fork: the source's recorded result when the step's content key is unchanged.
    const reused = state.request?.memo
      ? await reusedResult({ ...args, redact: ctx.redact?.value }, step, stepPath, progress.outputs)
      : null;
    if (reused) {
      // Held like a finished step's result: a crash that loses it costs only another lookup (nothing was called).
      await held.appendOrHold(ctx, [...scheduling, reused.event]);
      progress.complete(step, reused.output);
      continue;
    }
    const batching = { leading: [...held.take(), ...scheduling], held };
    const base = {
      env: args.env,
      ctx,
      workflow: args.workflow,
      capabilities: args.capabilities,
      locked: args.locked,
      input: args.input,
      cycle: args.cycle,
      stepPath,
      outputs: { ...progress.outputs },
      visits: new Map(progress.visits),
      ...(args.liveTools ? { liveTools: args.liveTools } : {}),
    };
    running.set(
      step.id,
      (step.forEach
        ? runFanOut({ ...step, forEach: step.forEach }, base, state, signal, maxConcurrency, batching)
        : runStep(step, base, state.steps.get(stepPath), signal, batching)
      ).then(
        (output) => ({ id: step.id, output }),
        (error: unknown) => ({ id: step.id, error }),
      ),
    );
  }
}

/** The lock must still describe this exact version; a changed byte anywhere fails closed. */
function verifyLock(locked: LockedVersion): void {
  const recomputed = contentAddress(locked.version.lwir);
  if (recomputed.hash !== locked.lock.lwirHash || recomputed.hash !== locked.version.hash || lockHashOf(locked.lock) !== locked.lockHash) {
    throw new RunFailure("capability_drift", `Version ${locked.version.id} no longer matches its lock`);
  }
}
