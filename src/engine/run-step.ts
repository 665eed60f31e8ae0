import { appendEvents, SliceYieldSignal } from "../harness/harness-context.ts";
import { assertNotPaused } from "../harness/pause-yield.ts";
import { digestJson, digestPrefix } from "../json/digest.ts";
import type { LwirStep } from "../lwir/types.ts";
import type { NewRunEvent } from "../ports/run-events.ts";
import { recordable } from "./blob-refs.ts";
import { cancelAttemptChild } from "./children/cancel-attempt-child.ts";
import { appendOrHold, type HeldEvents } from "./held-events.ts";
import { RunFailure } from "./run-failure.ts";
import type { StepProgress } from "./run-state.ts";
import { StepAttemptError } from "./step-failure.ts";
import { runAiGenerate } from "./steps/ai-generate.ts";
import { runCodeRun } from "./steps/code-run.ts";
import { decide } from "./steps/decision.ts";
import type { StepAttempt } from "./steps/step-context.ts";
import { runToolCall } from "./steps/tool-call.ts";
import { runWaitSignal } from "./steps/wait-signal.ts";
import { runWaitSleep } from "./steps/wait-sleep.ts";
import { runWorkflowRun } from "./steps/workflow-run.ts";

/** How a step's appends join the executor's (see {@link runStep}). */
export type StepBatching = {
  readonly leading?: readonly NewRunEvent[];
  readonly held?: HeldEvents;
};

/** Attempts of an ai.generate step without a retry policy: the first answer and two repairs. */
const DEFAULT_AI_ATTEMPTS = 3;

/** Backoffs at most this long are slept inside the slice; longer ones end it and re-arm the alarm. */
const MAX_IN_SLICE_WAIT_MS = 2_000;

/**
 * Runs one step to success or final failure: `StepStarted` per attempt (with its deadline when the
 * step has `timeoutMs`), `StepRetried` with the time of the next attempt (exponential backoff with
 * deterministic jitter), `StepSucceeded` or `StepFailed`. Deadlines and retry times live in the
 * log, so they hold across resumes.
 *
 * `batching.leading` are events that belong right before this step's first append (the previous
 * step's held `StepSucceeded`, this step's `StepScheduled` when it was scheduled just now): they go
 * in the same batch as the first `StepStarted`, so they cost one sync. Nothing with a side effect
 * happens between them either way. With `batching.held`, the step's own `StepSucceeded` may be
 * held for the executor's next append instead of being appended now (held-events.ts).
 */
export async function runStep(
  step: LwirStep,
  base: Omit<StepAttempt, "attempt" | "signal">,
  progress: StepProgress | undefined,
  parent: AbortSignal,
  batching: StepBatching = {},
): Promise<unknown> {
  const { ctx, stepPath } = base;
  const leading = batching.leading ?? [];
  // Failed for good before a crash: the run fails as it would have, without calling anything again.
  if (progress?.failed) {
    if (leading.length > 0) await appendEvents(ctx, leading);
    throw new RunFailure(
      "step_failed",
      `Step ${stepPath} failed after ${progress.failed.attempt} attempt${progress.failed.attempt === 1 ? "" : "s"}: ${progress.failed.message}`,
      { stepPath, code: progress.failed.code },
    );
  }
  // An ai.generate output that fails its schema may be repaired twice by default (the model is told why).
  const maxAttempts = step.retry?.maxAttempts ?? (step.uses === "ai.generate" ? DEFAULT_AI_ATTEMPTS : 1);
  let attempt = progress?.attempt ?? 1;
  let started = progress?.started ?? false;
  let deadline = progress?.deadline;
  let previousError = progress?.previousError;
  const retryAt = progress?.retryAt;
  // Only a fresh step has `leading` events; anything else logs them on their own, first, as before.
  let pending = leading;
  if (pending.length > 0 && (started || retryAt !== undefined)) {
    await appendEvents(ctx, pending);
    pending = [];
  }
  if (retryAt !== undefined && !started) await waitUntil(base, retryAt);
  for (;;) {
    if (!started) {
      // Paused: this attempt does not start (a retry's next attempt included); the resume starts it.
      assertNotPaused(ctx);
      deadline = step.timeoutMs !== undefined ? ctx.clock.now() + step.timeoutMs : undefined;
      const startedEvent: NewRunEvent = {
        type: "StepStarted",
        payload: { stepPath, attempt, ...(deadline !== undefined ? { deadline } : {}) },
      };
      await appendEvents(ctx, [...pending, startedEvent]);
      pending = [];
    }
    try {
      const output = await attemptOnce(step, { ...base, attempt, signal: parent, ...(previousError ? { previousError } : {}) }, deadline);
      const succeeded: NewRunEvent = {
        type: "StepSucceeded",
        payload: { stepPath, attempt, output: await recordable(output, base.env.blobs, ctx.redact?.value) },
      };
      await appendOrHold(ctx, batching.held, [succeeded]);
      return output;
    } catch (error) {
      if (!(error instanceof StepAttemptError)) throw error;
      if (error.attemptCode === "step_timeout" && step.uses === "workflow.run")
        await cancelAttemptChild(base.env, stepPath, attempt, error.message);
      if (error.retriable && attempt < maxAttempts) {
        const next = ctx.clock.now() + backoffMs(step, ctx.runId, stepPath, attempt);
        await appendEvents(ctx, [{ type: "StepRetried", payload: { stepPath, attempt, retryAt: next, error: error.toRecorded() } }]);
        attempt += 1;
        started = false;
        previousError = { code: error.attemptCode, message: error.message };
        await waitUntil(base, next);
        continue;
      }
      await appendEvents(ctx, [{ type: "StepFailed", payload: { stepPath, attempt, error: error.toRecorded() } }]);
      throw new RunFailure("step_failed", `Step ${stepPath} failed after ${attempt} attempt${attempt === 1 ? "" : "s"}: ${error.message}`, {
        stepPath,
        code: error.attemptCode,
      });
    }
  }
}

async function attemptOnce(step: LwirStep, a: StepAttempt, deadline: number | undefined): Promise<unknown> {
  if (deadline === undefined) return dispatch(step, a);
  const remaining = deadline - a.ctx.clock.now();
  if (remaining <= 0) throw new StepAttemptError("step_timeout", `Step ${a.stepPath} passed its ${step.timeoutMs} ms timeout`, true);
  const timeout = AbortSignal.timeout(remaining);
  const signal = AbortSignal.any([a.signal, timeout]);
  try {
    return await Promise.race([
      dispatch(step, { ...a, signal }),
      new Promise<never>((_, reject) => {
        signal.addEventListener(
          "abort",
          () =>
            reject(
              timeout.aborted
                ? new StepAttemptError("step_timeout", `Step ${a.stepPath} passed its ${step.timeoutMs} ms timeout`, true)
                : signal.reason,
            ),
          { once: true },
        );
      }),
    ]);
  } catch (error) {
    if (timeout.aborted && !(error instanceof RunFailure))
      throw new StepAttemptError("step_timeout", `Step ${a.stepPath} passed its ${step.timeoutMs} ms timeout`, true);
    throw error;
  }
}

function dispatch(step: LwirStep, a: StepAttempt): Promise<unknown> {
  switch (step.uses) {
    case "ai.generate":
      return runAiGenerate(step, a);
    case "tool.call":
      return runToolCall(step, a);
    case "code.run":
      return runCodeRun(step, a);
    case "decision":
      return Promise.resolve(decide(step, a));
    case "wait.sleep":
      return runWaitSleep(step, a);
    case "wait.signal":
      return runWaitSignal(step, a);
    case "workflow.run":
      return runWorkflowRun(step, a);
    default: {
      // validateLwir admits only the kinds above; anything else here is a corrupted version.
      const kind: never = step;
      throw new StepAttemptError("step_kind_unsupported", `${(kind as { uses: string }).uses} steps cannot be executed`, false);
    }
  }
}

/** `backoffMs · 2^(attempt-1)` plus up to half of it again, the same for the same step and attempt. */
export function backoffMs(step: LwirStep, runId: string, stepPath: string, attempt: number): number {
  // No retry policy (an ai.generate repair): retry at once; a policy without backoffMs waits 1 s.
  const base = (step.retry ? (step.retry.backoffMs ?? 1_000) : 0) * 2 ** (attempt - 1);
  const jitter = (Number.parseInt(digestPrefix(digestJson([runId, stepPath, attempt]), 8), 16) / 0xffffffff) * 0.5;
  return Math.round(base * (1 + jitter));
}

async function waitUntil(base: Omit<StepAttempt, "attempt" | "signal">, at: number): Promise<void> {
  const wait = at - base.ctx.clock.now();
  if (wait <= 0) return;
  if (wait > MAX_IN_SLICE_WAIT_MS) throw new SliceYieldSignal(at);
  await base.ctx.sleep(wait);
}
