import { appendEvents, SliceYieldSignal } from "../../harness/harness-context.ts";
import { renderValue } from "../../lwir/evaluate-template.ts";
import type { WorkflowRunStep } from "../../lwir/types.ts";
import type { ChildStartRequest, ChildStartResult } from "../../ports/child-runs.ts";
import type { ChildOutcome, NewRunEvent, RunCauseCode } from "../../ports/run-events.ts";
import type { RunView } from "../../ports/run-handle.ts";
import { isEndedStatus } from "../../ports/run-status.ts";
import { schemaOfOutputMode } from "../../schema/normalize-output-mode.ts";
import { validateJson } from "../../schema/validate-json.ts";
import { LittleError } from "../../sdk/errors/little-error.ts";
import { MAX_CHILD_DEPTH } from "../children/call-graph.ts";
import { childRunId } from "../children/child-run-id.ts";
import { RunFailure } from "../run-failure.ts";
import type { ChildProgress } from "../run-state.ts";
import { type StepAttemptCode, StepAttemptError } from "../step-failure.ts";
import type { StepAttempt } from "./step-context.ts";

/**
 * A `workflow.run` attempt: the callee runs as a child run, a real run of its own started through
 * the start service (its own run object, planner session, index row; the parent's tenant). The
 * parent's log records `ChildRunStarted` (with the child's derived id) before the start, so a
 * crash between the two starts the same child again, which the start service answers as it is.
 * The slice then yields with no alarm: the child's run object tells this one when it ends
 * (`childEnded` → `ChildRunEnded`), and the next slice answers the step from the log. A child that
 * failed fails the attempt with its cause (retriable: the step's `retry` starts a fresh child, the
 * next attempt's id); a completed child's output is the step's output.
 */
export async function runWorkflowRun(step: WorkflowRunStep, a: StepAttempt): Promise<unknown> {
  const { ctx, stepPath, attempt } = a;
  const calleeId = step.with.workflow;
  // The lock was bound to the callees the definition declared; one gone since is drift.
  if (!a.capabilities.callees.some((c) => c.id === calleeId))
    throw new RunFailure("capability_drift", `Step ${stepPath} runs workflow "${calleeId}", which the definition no longer declares`);
  const state = await a.env.run.current();
  const request = state.request;
  if (!request) throw new RunFailure("internal_error", "The run has no request");
  const id = childRunId(ctx.runId, stepPath, attempt);
  const known = state.children.find((c) => c.childRunId === id);
  // Answered from the log: a child that ended is never started or asked again.
  if (known?.ended) return answer(step, known.ended, id);
  const depth = (request.parent?.depth ?? 0) + 1;
  if (depth > MAX_CHILD_DEPTH)
    throw new StepAttemptError(
      "workflow_depth_exceeded",
      `Step ${stepPath} would start a child run ${depth} levels deep; workflow.run nests at most ${MAX_CHILD_DEPTH} levels`,
      false,
    );
  const input = renderValue(step.with.input ?? {}, { input: a.input, steps: a.outputs, item: a.item });
  const jurisdiction = a.env.workflows.get(calleeId)?.definition.placement.jurisdiction;
  const placement = jurisdiction ? { jurisdiction } : undefined;
  if (!known)
    await appendEvents(ctx, [
      {
        type: "ChildRunStarted",
        payload: {
          stepPath,
          attempt,
          childRunId: id,
          workflowId: calleeId,
          ...(placement ? { placement } : {}),
          outputSchema: (schemaOfOutputMode(step.output) as Record<string, unknown> | boolean | undefined) ?? null,
        },
      },
    ]);
  const started = await startChild(a, {
    tenant: request.tenant,
    workflowId: calleeId,
    input,
    runId: id,
    parent: {
      runId: ctx.runId,
      stepPath,
      attempt,
      tenant: request.tenant,
      ...(request.placement ? { placement: request.placement } : {}),
      depth,
    },
  });
  if ("refused" in started) {
    const { refused } = started;
    // A refusal that passes with time (a quota, a lost answer): the same start again, later.
    const retryAfter = (refused as { retryAfterSeconds?: unknown }).retryAfterSeconds;
    if (typeof retryAfter === "number") throw new SliceYieldSignal(ctx.clock.now() + retryAfter * 1_000);
    const ended: ChildOutcome = {
      status: "failed",
      cause: { code: "child_start_refused", message: `${refused.code}: ${refused.message}` },
    };
    await record(a, id, ended);
    throw new StepAttemptError(
      "child_start_refused",
      `Step ${stepPath} could not start workflow "${calleeId}": ${refused.code}: ${refused.message}`,
      false,
    );
  }
  // Ended before this step heard of it (a resumed parent whose notification was lost): record it now.
  const outcome = outcomeOfView(started.view);
  if (outcome) {
    await record(a, id, outcome);
    return answer(step, outcome, id);
  }
  // The step's own deadline, if it has one, is the only alarm; else only the child's end wakes the run.
  const deadline = state.steps.get(stepPath)?.deadline;
  throw deadline !== undefined ? new SliceYieldSignal(deadline) : new SliceYieldSignal(undefined, { untilMessage: true });
}

/** The child's start, or the named error that refused it: a refusal is the step's to fail on or wait out. */
async function startChild(a: StepAttempt, request: ChildStartRequest): Promise<ChildStartResult | { refused: LittleError }> {
  try {
    return await a.env.children.startChild(request);
  } catch (error) {
    if (LittleError.is(error)) return { refused: error };
    throw error;
  }
}

/** How an ended child's view says it ended; null while it runs (or waits). */
export function outcomeOfView(view: RunView): ChildOutcome | null {
  if (!isEndedStatus(view.status)) return null;
  if (view.status === "completed") return { status: "completed", output: view.output ?? null };
  return {
    status: view.status === "cancelled" ? "cancelled" : "failed",
    cause: {
      code: view.cause?.code ?? (view.status === "cancelled" ? "cancelled" : "internal_error"),
      message: view.cause?.message ?? view.status,
    },
  };
}

async function record(a: StepAttempt, childRunId: string, outcome: ChildOutcome): Promise<void> {
  const event: NewRunEvent = { type: "ChildRunEnded", payload: { stepPath: a.stepPath, attempt: a.attempt, childRunId, ...outcome } };
  await appendEvents(a.ctx, [event]);
}

/** The step's output, or its attempt's failure with the child's cause. */
function answer(step: WorkflowRunStep, ended: NonNullable<ChildProgress["ended"]>, id: string): unknown {
  const callee = step.with.workflow;
  if (ended.status !== "completed") {
    if (ended.status === "cancelled")
      throw new StepAttemptError("child_cancelled", `Child run ${id} of workflow "${callee}" was cancelled: ${ended.cause.message}`, false);
    // The child's cause is the attempt's code (a refused start's is child_start_refused), so a client branches on it.
    const code = ended.cause.code as StepAttemptCode & RunCauseCode;
    throw new StepAttemptError(
      code,
      `Child run ${id} of workflow "${callee}" failed: ${ended.cause.code}: ${ended.cause.message}`,
      ended.cause.code !== "child_start_refused",
    );
  }
  const schema = schemaOfOutputMode(step.output);
  if (schema !== undefined) {
    const check = validateJson(schema, ended.output, "workflow_run.output_invalid");
    if (!check.valid)
      throw new StepAttemptError(
        "child_output_invalid",
        `Child run ${id} of workflow "${callee}" returned an output the step's schema refuses: ${check.findings.map((f) => `${f.path}: ${f.message}`).join("; ")}`,
        false,
      );
  }
  return ended.output;
}
