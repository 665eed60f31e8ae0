import { appendEvents, SliceYieldSignal } from "../../harness/harness-context.ts";
import { renderTemplate } from "../../lwir/evaluate-template.ts";
import { MAX_WAIT_MS, type WaitSleepStep } from "../../lwir/types.ts";
import { StepAttemptError } from "../step-failure.ts";
import type { StepAttempt } from "./step-context.ts";

/** A wait.sleep's output. */
export type SleepOutput = { readonly wokeAt: string };

/**
 * A `wait.sleep` attempt. Its deadline is computed once and appended (`WaitStarted`), so a resume
 * or a crash keeps it: the slice yields until then and the run object's alarm wakes the run, which
 * replays to this step and finds the deadline passed. `until` is rendered as a template and must
 * be an ISO-8601 instant at most 365 days ahead (a past one wakes at once).
 */
export async function runWaitSleep(step: WaitSleepStep, a: StepAttempt): Promise<SleepOutput> {
  const { ctx, stepPath, attempt } = a;
  const open = (await a.env.run.current()).stepWaits.get(stepPath);
  let until = open?.reason === "sleep" ? open.until : undefined;
  if (until === undefined) {
    until = deadlineOf(step, a);
    await appendEvents(ctx, [{ type: "WaitStarted", payload: { stepPath, attempt, kind: "sleep", until } }]);
  }
  const now = ctx.clock.now();
  if (now < until) throw new SliceYieldSignal(until);
  return { wokeAt: new Date(now).toISOString() };
}

function deadlineOf(step: WaitSleepStep, a: StepAttempt): number {
  const now = a.ctx.clock.now();
  if (step.with.durationMs !== undefined) return now + step.with.durationMs;
  const rendered = renderTemplate(step.with.until ?? "", { input: a.input, steps: a.outputs, item: a.item });
  const at = typeof rendered === "string" ? Date.parse(rendered) : Number.NaN;
  if (Number.isNaN(at))
    throw new StepAttemptError(
      "wait_until_invalid",
      `wait.sleep ${a.stepPath}: until gave ${JSON.stringify(rendered)}, no ISO-8601 instant`,
      false,
    );
  if (at - now > MAX_WAIT_MS)
    throw new StepAttemptError(
      "wait_too_long",
      `wait.sleep ${a.stepPath}: until ${new Date(at).toISOString()} is more than 365 days ahead`,
      false,
    );
  return Math.max(at, now);
}
