import type { BlobStore } from "../../ports/blob-store.ts";
import type { ChildRuns } from "../../ports/child-runs.ts";
import type { EventLog } from "../../ports/event-log.ts";
import type { ChildOutcome, NewRunEvent } from "../../ports/run-events.ts";
import type { ChildEndedRequest, ChildEndedResult } from "../../ports/run-handle.ts";
import type { JsonSchema } from "../../schema/normalize-schema.ts";
import { validateJson } from "../../schema/validate-json.ts";
import { RunTerminatedError } from "../../sdk/errors/run-terminated-error.ts";
import { RunFailure } from "../run-failure.ts";
import { appendWithAnswer, type WaitAnswer } from "../run-host/answer-waiting-step.ts";
import type { RunHostPorts } from "../run-host/host-ports.ts";
import { readRunResultOfState } from "../run-result.ts";
import { type RunState, readRunState } from "../run-state.ts";

/**
 * @module The messages between a parent run and its children, over their run objects (never a
 * poll): a child that ended tells its parent (`childEnded` → `ChildRunEnded`, which wakes the
 * parent's waiting `workflow.run` step), and a cancelled parent cancels the children still running.
 */

/**
 * Records a child's end in the parent's log and arms the parent's alarm, so its step goes on.
 * Idempotent: a child told twice (a retried notification) is recorded once.
 */
export async function recordChildEnd(ports: RunHostPorts, request: ChildEndedRequest): Promise<ChildEndedResult> {
  const state = (await readRunState(ports.log)).state;
  if (!state.request) return { ok: false, code: "run_not_found", message: "No such run" };
  const child = state.children.find((c) => c.childRunId === request.childRunId);
  if (!child) return { ok: false, code: "child_not_found", message: `Run ${request.childRunId} is no child of this run` };
  if (child.ended) return { ok: true, created: false };
  if (state.terminal) return { ok: false, code: "run_ended", message: `The run has ended (${state.status})` };
  const { childRunId, ...outcome } = request;
  const message: NewRunEvent = {
    type: "ChildRunEnded",
    payload: { stepPath: child.stepPath, attempt: child.attempt, childRunId, ...outcome },
  };
  // Its workflow.run step ends in the same append when nothing else drives the run (answer-waiting-step.ts).
  if (!(await appendWithAnswer(ports, message, (now, at) => answerOfChild(now, request, at)))) {
    // The alarm is armed in the append's own turn, so a crash cannot keep a recorded end from its step.
    const appended = ports.log.append([message]);
    await ports.alarm.wakeIn(0);
    try {
      await appended;
    } catch (error) {
      // The parent ended since the checks above (a cancel): nothing is waiting for the child any more.
      if (error instanceof RunTerminatedError) return { ok: false, code: "run_ended", message: "The run has ended" };
      throw error;
    }
  }
  return { ok: true, created: true };
}

/**
 * The workflow.run step a completed child ends at once: the one waiting for this child, on the
 * attempt that started it, when the child's output passes the step's schema as recorded at its
 * start. A failed or cancelled child, an output the schema refuses, a log from before the schema
 * was recorded: the slice decides (a retry, the step's failure), as before.
 */
function answerOfChild(state: RunState, request: ChildEndedRequest, at: number): WaitAnswer | null {
  if (request.status !== "completed") return null;
  const child = state.children.find((c) => c.childRunId === request.childRunId);
  if (!child || child.outputSchema === undefined) return null;
  const wait = state.stepWaits.get(child.stepPath);
  const step = state.steps.get(child.stepPath);
  if (wait?.reason !== "child" || wait.childRunId !== child.childRunId || !step?.started || step.attempt !== child.attempt) return null;
  if (step.deadline !== undefined && step.deadline <= at) return null;
  if (child.outputSchema !== null && !validateJson(child.outputSchema as JsonSchema, request.output, "workflow_run.output_invalid").valid)
    return null;
  return { stepPath: child.stepPath, attempt: child.attempt, between: [], output: request.output };
}

/** What a child host needs to tell its parent: its log, the child runs port, and its blobs for a stored output. */
export type ParentNotice = {
  readonly runId: string;
  readonly log: EventLog;
  readonly children: ChildRuns;
  readonly blobs?: BlobStore;
};

/**
 * Tells the parent of an ended child run how it ended. True when there is nothing to tell (no
 * parent, not ended) or the parent answered (whatever it answered: a parent that ended has no
 * step waiting); false when the parent could not be reached, for the host to try again later.
 */
export async function notifyParent(ports: ParentNotice): Promise<boolean> {
  const state = (await readRunState(ports.log)).state;
  const parent = state.request?.parent;
  if (!parent || !state.terminal) return true;
  try {
    await ports.children.tellParent(parent, { childRunId: ports.runId, ...(await outcomeOf(ports, state)) });
    return true;
  } catch (error) {
    console.error(
      `run ${ports.runId}: telling parent ${parent.runId} it ended failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    return false;
  }
}

async function outcomeOf(ports: ParentNotice, state: RunState): Promise<ChildOutcome> {
  const terminal = state.terminal;
  if (terminal?.type === "RunCancelled") return { status: "cancelled", cause: { code: "cancelled", message: terminal.payload.reason } };
  if (terminal?.type === "RunFailed")
    return { status: "failed", cause: { code: terminal.payload.causeCode, message: terminal.payload.message } };
  if (!ports.blobs) return { status: "failed", cause: { code: "internal_error", message: "The child's output could not be read" } };
  try {
    const result = await readRunResultOfState(ports.runId, state, ports.blobs);
    return { status: "completed", output: result.output ?? null };
  } catch (error) {
    if (!(error instanceof RunFailure)) throw error;
    return { status: "failed", cause: { code: error.causeCode, message: error.message } };
  }
}

/**
 * Cancels the children of a cancelled (or failed) run that have not ended, each told why. Best effort: a child
 * that cannot be reached now is left to end on its own (its end is then told to an ended parent).
 */
export async function cancelChildren(
  ports: { readonly runId: string; readonly children: ChildRuns },
  state: RunState,
  reason: string,
): Promise<void> {
  const tenant = state.request?.tenant ?? "default";
  const running = state.children.filter((c) => !c.ended);
  await Promise.all(
    running.map((c) =>
      ports.children.cancel(tenant, c.childRunId, c.placement, `its parent run ${ports.runId} ended: ${reason}`).catch((error: unknown) => {
        console.error(
          `run ${ports.runId}: cancelling child ${c.childRunId} failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }),
    ),
  );
}
