import { appendEvents, type HarnessContext } from "../harness/harness-context.ts";
import { lockHash as lockHashOf } from "../identity/compiler-lock.ts";
import type { DefinitionCapabilities } from "../identity/definition-snapshot.ts";
import { contentAddress } from "../identity/workflow-version.ts";
import { terminalSteps, upstreamSets } from "../lwir/graph.ts";
import type { LockedVersion } from "../lwir/register-workflow-version.ts";
import type { LwirStep } from "../lwir/types.ts";
import type { NewRunEvent } from "../ports/run-events.ts";
import { resolveRecorded } from "./blob-refs.ts";
import { runFanOut } from "./fan-out.ts";
import type { RegisteredWorkflow, RunEnvironment } from "./run-environment.ts";
import { RunFailure } from "./run-failure.ts";
import type { RunState } from "./run-state.ts";
import { runStep } from "./run-step.ts";
import { type DecisionOutput, skipReason } from "./steps/decision.ts";

/** Steps in flight at once unless the definition says otherwise (production allows 6 connections per invocation). */
export const DEFAULT_MAX_CONCURRENCY = 6;

/**
 * Executes a locked version: every step whose `needs` are met runs, up to `maxConcurrency` at once,
 * so a run's wall time approaches its critical path. Before any step runs the lock is verified
 * against the version (fail closed on tampering); a step with a recorded `StepSucceeded` never runs again.
 * The first failure aborts the steps in flight and fails the run. Returns the terminal step's output.
 */
export async function executeVersion(args: {
  env: RunEnvironment;
  ctx: HarnessContext;
  workflow: RegisteredWorkflow;
  capabilities: DefinitionCapabilities;
  locked: LockedVersion;
  input: unknown;
  cycle: number;
  state: RunState;
  /** Prefix of every step path: a section's occurrence (`o2/`) runs the same steps under its own paths. */
  scope?: string;
}): Promise<unknown> {
  const { ctx, locked, cycle, state } = args;
  const steps = locked.version.lwir.steps;
  const maxConcurrency = args.workflow.definition.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY;
  // A loop revisits steps; visit k > 1 of a step has the path `<step>@k`.
  const visits = new Map(steps.map((s) => [s.id, 1]));
  const pathOf = (step: LwirStep) => {
    const visit = visits.get(step.id) ?? 1;
    const base = `${args.scope ?? ""}c${cycle}/${step.id}`;
    return visit === 1 ? base : `${base}@${visit}`;
  };
  const outputs: Record<string, unknown> = {};
  const done = new Set<string>();
  const skipped = new Set<string>();
  const byId = new Map(steps.map((s) => [s.id, s]));
  const loops = loopBodies(steps);
  /** A finished step; a decision that chose a step upstream of it sends the loop round again. */
  const complete = (step: LwirStep, output: unknown) => {
    outputs[step.id] = output;
    done.add(step.id);
    if (step.uses !== "decision") return;
    const body = loops.get(`${step.id}->${(output as DecisionOutput).chosen}`);
    if (!body) return;
    for (const id of body) {
      visits.set(id, (visits.get(id) ?? 1) + 1);
      done.delete(id);
      skipped.delete(id);
    }
  };
  const settledCount = () => done.size + skipped.size;
  // Once per slice: the version in hand is immutable, so checking it again before every step
  // would only re-canonicalize the same document (O(steps × size) on a large LWIR).
  verifyLock(locked);
  const abort = new AbortController();
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, abort.signal]) : abort.signal;
  const running = new Map<string, Promise<{ id: string; output?: unknown; error?: unknown }>>();
  let failure: unknown = null;
  while (settledCount() < steps.length) {
    if (failure === null) {
      for (const step of steps) {
        if (running.size >= maxConcurrency) break;
        if (done.has(step.id) || skipped.has(step.id) || running.has(step.id) || !step.needs.every((n) => done.has(n) || skipped.has(n)))
          continue;
        const stepPath = pathOf(step);
        // Settled in an earlier slice: take it from the log, in the same order it happened.
        if (state.stepOutputs.has(stepPath)) {
          complete(step, await resolveRecorded(state.stepOutputs.get(stepPath), args.env.blobs));
          continue;
        }
        if (state.skipped.has(stepPath)) {
          skipped.add(step.id);
          continue;
        }
        const reason = skipReason(step, byId, outputs, skipped);
        if (reason !== null) {
          await appendEvents(ctx, [{ type: "StepSkipped", payload: { stepPath, reason } }]);
          skipped.add(step.id);
          continue;
        }
        // Once per step: its needs are met and it takes a place among the steps in flight. It is
        // logged in the same batch as the step's first StepStarted (one sync, same order): the
        // step appends it synchronously when called below, before any await.
        const scheduling: NewRunEvent[] = state.scheduled.has(stepPath) ? [] : [{ type: "StepScheduled", payload: { stepPath } }];
        const base = {
          env: args.env,
          ctx,
          workflow: args.workflow,
          capabilities: args.capabilities,
          locked,
          input: args.input,
          cycle,
          stepPath,
          outputs: { ...outputs },
          visits: new Map(visits),
        };
        running.set(
          step.id,
          (step.forEach
            ? runFanOut({ ...step, forEach: step.forEach }, base, state, signal, maxConcurrency, scheduling)
            : runStep(step, base, state.steps.get(stepPath), signal, scheduling)
          ).then(
            (output) => ({ id: step.id, output }),
            (error: unknown) => ({ id: step.id, error }),
          ),
        );
      }
    }
    if (running.size === 0) {
      // Skipping or replaying may have made more steps ready; go round again unless nothing can move.
      if (
        steps.some((s) => !done.has(s.id) && !skipped.has(s.id) && s.needs.every((n) => done.has(n) || skipped.has(n))) &&
        failure === null
      )
        continue;
      break;
    }
    const settled = await Promise.race(running.values());
    running.delete(settled.id);
    if (settled.error !== undefined) {
      if (failure === null) {
        failure = settled.error;
        abort.abort(settled.error);
      }
      continue;
    }
    complete(byId.get(settled.id) as LwirStep, settled.output);
  }
  if (failure !== null) throw failure;
  if (settledCount() < steps.length)
    throw new RunFailure("internal_error", "Some steps could not be scheduled (their needs never completed)");
  const [terminal] = terminalSteps(steps);
  return skipped.has(terminal as string) ? null : outputs[terminal as string];
}

/** The lock must still describe this exact version; a changed byte anywhere fails closed. */
function verifyLock(locked: LockedVersion): void {
  const recomputed = contentAddress(locked.version.lwir);
  if (recomputed.hash !== locked.lock.lwirHash || recomputed.hash !== locked.version.hash || lockHashOf(locked.lock) !== locked.lockHash) {
    throw new RunFailure("capability_drift", `Version ${locked.version.id} no longer matches its lock`);
  }
}

/**
 * For each decision target upstream of its decision (a loop), the steps a choice of it runs again:
 * the target, the steps between it and the decision, and the decision itself. Keyed `<decision>-><target>`.
 */
function loopBodies(steps: readonly LwirStep[]): Map<string, Set<string>> {
  const upstream = upstreamSets(steps);
  const bodies = new Map<string, Set<string>>();
  for (const step of steps) {
    if (step.uses !== "decision") continue;
    const above = upstream.get(step.id) ?? new Set<string>();
    for (const target of [...step.with.cases.map((c) => c.step), step.with.default]) {
      if (!above.has(target)) continue;
      const body = new Set([target, step.id]);
      for (const s of steps) if (above.has(s.id) && (upstream.get(s.id) ?? new Set()).has(target)) body.add(s.id);
      bodies.set(`${step.id}->${target}`, body);
    }
  }
  return bodies;
}
