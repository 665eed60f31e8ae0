import { appendEvents } from "../harness/harness-context.ts";
import { PauseYield } from "../harness/pause-yield.ts";
import { renderTemplate } from "../lwir/evaluate-template.ts";
import type { LwirStep } from "../lwir/types.ts";
import type { NewRunEvent } from "../ports/run-events.ts";
import { recordable, resolveRecorded } from "./blob-refs.ts";
import { appendOrHold, HeldEvents } from "./held-events.ts";
import { RunFailure } from "./run-failure.ts";
import type { RunState } from "./run-state.ts";
import { runStep, type StepBatching } from "./run-step.ts";
import type { StepAttempt } from "./steps/step-context.ts";

/** Most elements one fan-out may have. */
export const MAX_FAN_OUT_ITEMS = 1_000;

type Settled = { status: "succeeded"; output: unknown } | { status: "failed"; error: { code: string; message: string } };

/**
 * Runs a fan-out step: one branch per element of `forEach.items`, each a full step (attempts,
 * retries, timeouts) at path `<step>[<key>]`, at most `maxConcurrency` at once. Finished branches
 * are read back from the log, so a resumed run never re-runs them. The step's output is the
 * branches' outputs in item order (`all_settled`: each as `{ status, output | error }`).
 */
export async function runFanOut(
  step: LwirStep & { forEach: NonNullable<LwirStep["forEach"]> },
  base: Omit<StepAttempt, "attempt" | "signal">,
  state: RunState,
  parent: AbortSignal,
  defaultConcurrency: number,
  batching: StepBatching = {},
): Promise<unknown> {
  const { ctx, stepPath } = base;
  const leading = batching.leading ?? [];
  const fail = async (code: string, message: string): Promise<never> => {
    await appendEvents(ctx, [
      { type: "StepFailed", payload: { stepPath, attempt: 1, error: { name: "FanOutError", code, message, retriable: false } } },
    ]);
    throw new RunFailure("step_failed", `Step ${stepPath}: ${message}`, { stepPath, code });
  };
  const recorded = state.steps.get(stepPath)?.failed;
  // `leading` (a held StepSucceeded, a StepScheduled made just now) shares the StepStarted batch: one sync.
  const first: NewRunEvent[] =
    recorded || state.steps.get(stepPath)?.started
      ? [...leading]
      : [...leading, { type: "StepStarted", payload: { stepPath, attempt: 1 } }];
  if (first.length > 0) await appendEvents(ctx, first);
  if (recorded) throw new RunFailure("step_failed", `Step ${stepPath}: ${recorded.message}`, { stepPath, code: recorded.code });
  const scope = { input: base.input, steps: base.outputs };
  const items = renderTemplate(step.forEach.items, scope);
  if (!Array.isArray(items))
    return fail("fanout_items_not_array", `forEach.items gave ${items === null ? "null" : typeof items}, not an array`);
  if (items.length > MAX_FAN_OUT_ITEMS)
    return fail("fanout_too_many_items", `forEach.items gave ${items.length} elements; the limit is ${MAX_FAN_OUT_ITEMS}`);
  const keys = items.map((item, i) =>
    step.forEach.itemKey ? String(renderTemplate(step.forEach.itemKey, { ...scope, item })) : String(i),
  );
  const duplicate = keys.find((k, i) => keys.indexOf(k) !== i);
  if (duplicate !== undefined) return fail("fanout_duplicate_key", `forEach.itemKey gives "${duplicate}" to more than one element`);

  const allSettled = step.forEach.failureMode === "all_settled";
  const limit = Math.max(1, Math.min(step.forEach.maxConcurrency ?? defaultConcurrency, items.length || 1));
  const { settled, firstFailure } = await runBranches(step, base, state, parent, { items, keys, allSettled, limit });
  if (firstFailure !== null) {
    if (firstFailure instanceof RunFailure) await fail("fanout_branch_failed", firstFailure.message);
    throw firstFailure;
  }
  const output = allSettled ? settled : settled.map((s) => (s as { output: unknown }).output);
  const recordedOutput = await recordable(output, base.env.blobs, ctx.redact?.value);
  await appendOrHold(ctx, batching.held, [{ type: "StepSucceeded", payload: { stepPath, attempt: 1, output: recordedOutput } }]);
  return output;
}

/**
 * The branches, `limit` workers taking the next element in turn. A worker holds its branch's
 * `StepSucceeded` for its own next append (the next branch's `StepStarted`, which follows at once:
 * no call in between), so a branch costs one synced write; what a worker holds when it stops is
 * appended on its own. Sibling workers' appends still share syncs (group commit in the log).
 */
async function runBranches(
  step: LwirStep & { forEach: NonNullable<LwirStep["forEach"]> },
  base: Omit<StepAttempt, "attempt" | "signal">,
  state: RunState,
  parent: AbortSignal,
  plan: { items: unknown[]; keys: string[]; allSettled: boolean; limit: number },
): Promise<{ settled: (Settled | undefined)[]; firstFailure: unknown }> {
  const { forEach: _forEach, ...branchStep } = step;
  const { items, keys, allSettled } = plan;
  const abort = new AbortController();
  const signal = AbortSignal.any([parent, abort.signal]);
  const settled: (Settled | undefined)[] = new Array(items.length);
  let next = 0;
  let firstFailure: unknown = null;
  const worker = async (): Promise<void> => {
    // Only this worker appends from it, and its next append comes before its next call.
    const held = new HeldEvents(() => true);
    while (next < items.length && firstFailure === null) {
      const i = next++;
      const path = `${base.stepPath}[${keys[i]}]`;
      if (state.stepOutputs.has(path)) {
        settled[i] = { status: "succeeded", output: await resolveRecorded(state.stepOutputs.get(path), base.env.blobs) };
        continue;
      }
      try {
        const branch = { ...base, stepPath: path, item: items[i] };
        settled[i] = {
          status: "succeeded",
          output: await runStep(branchStep as LwirStep, branch, state.steps.get(path), signal, { leading: held.take(), held }),
        };
      } catch (error) {
        if (!(error instanceof RunFailure) || !allSettled) {
          if (firstFailure === null) {
            firstFailure = error;
            // A pause lets the sibling branches in flight finish (pause-yield.ts).
            if (!(error instanceof PauseYield)) abort.abort(error);
          }
          break;
        }
        const code = String((error.details as { code?: unknown } | undefined)?.code ?? error.causeCode);
        settled[i] = { status: "failed", error: { code, message: error.message } };
      }
    }
    await held.flush(base.ctx);
  };
  await Promise.all(Array.from({ length: plan.limit }, worker));
  return { settled, firstFailure };
}
