import type { RunState } from "../engine/run-state.ts";
import type { RecordedError, RunEvent, RunEventType } from "../ports/run-events.ts";
import type { AttemptView, RunView, StepStatus, StepView } from "./run-view-types.ts";
import { parseStepPath } from "./step-path.ts";

/**
 * The DAG's nodes: one per step id of the current cycle (and occurrence). A path's status is read
 * from the engine's fold (`view.state`, already advanced by the event); what is added here is
 * presentation: attempts with their times, branches grouped under their step, loop visits,
 * approvals waiting, and nodes stopped by the run's end.
 */

/** Where one step path stands, as the fold has it. */
export function pathStatus(state: RunState, path: string): StepStatus {
  if (state.skipped.has(path)) return "skipped";
  if (state.stepOutputs.has(path)) return "succeeded";
  const progress = state.steps.get(path);
  if (progress?.failed) return "failed";
  if (progress) return progress.started ? "running" : "retrying";
  return state.scheduled.has(path) ? "scheduled" : "pending";
}

function newStep(id: string): StepView {
  return {
    id,
    status: "pending",
    visits: 1,
    attempts: [],
    branches: [],
    output: undefined,
    error: null,
    skippedReason: null,
    modelCalls: [],
    toolCalls: [],
    sessions: [],
    approvals: [],
  };
}

/** The step a path of the current cycle (and occurrence) names; null for an earlier one's path. */
export function stepFor(view: RunView, path: string): StepView | null {
  const parts = parseStepPath(path);
  if (parts.cycle !== view.cycle || parts.occurrence !== view.occurrence) return null;
  let step = view.steps[parts.stepId];
  if (!step) {
    step = newStep(parts.stepId);
    view.steps[parts.stepId] = step;
  }
  return step;
}

/**
 * A step event: a branch path moves its branch's status, the step's own path the step's (to
 * `status`, the fold's unless given). A later loop visit starts the step's status over.
 */
function stepEvent(
  view: RunView,
  path: string,
  also?: (step: StepView, path: string, isBranch: boolean) => void,
  status: StepStatus = pathStatus(view.state, path),
): void {
  const step = stepFor(view, path);
  if (!step) return;
  const parts = parseStepPath(path);
  if (parts.branch !== null) {
    let branch = step.branches.find((b) => b.path === path);
    if (!branch) {
      branch = { key: parts.branch, path, status: "pending" };
      step.branches.push(branch);
    }
    branch.status = status;
    if (step.status === "pending" || step.status === "scheduled") step.status = "running";
  } else {
    if (parts.visit > step.visits) {
      step.visits = parts.visit;
      step.status = "pending";
      step.error = null;
      step.skippedReason = null;
    }
    if (parts.visit === step.visits) step.status = status;
  }
  also?.(step, path, parts.branch !== null);
}

function endAttempt(
  step: StepView,
  path: string,
  attempt: number,
  at: number,
  outcome: AttemptView["outcome"],
  error: RecordedError | null,
): void {
  const open = step.attempts.findLast((a) => a.path === path && a.attempt === attempt);
  if (!open) return;
  open.endedAt = at;
  open.outcome = outcome;
  open.error = error;
}

const IN_FLIGHT: ReadonlySet<StepStatus> = new Set(["scheduled", "running", "waiting", "retrying"]);

/** The run failed or was cancelled: nodes still in flight stopped with it. */
export function stopInFlight(view: RunView): void {
  for (const step of Object.values(view.steps)) {
    if (IN_FLIGHT.has(step.status)) step.status = "stopped";
    for (const branch of step.branches) if (IN_FLIGHT.has(branch.status)) branch.status = "stopped";
  }
}

/** What an event of type `K` adds to the view, after the fold has applied it. */
export type Presenter<K extends RunEventType> = (view: RunView, event: RunEvent<K>) => void;
export type Presenters = { readonly [K in RunEventType]?: Presenter<K> };

/** The step and approval events' presentation. */
export const STEP_PRESENTERS: Presenters = {
  StepScheduled: (view, { payload }) => stepEvent(view, payload.stepPath),
  StepStarted: (view, { payload, at }) =>
    stepEvent(view, payload.stepPath, (step, path) => {
      step.attempts.push({ path, attempt: payload.attempt, startedAt: at, endedAt: null, outcome: "running", error: null });
    }),
  StepRetried: (view, { payload, at }) =>
    stepEvent(view, payload.stepPath, (step, path) => endAttempt(step, path, payload.attempt, at, "retried", payload.error)),
  StepSucceeded: (view, { payload, at }) =>
    stepEvent(view, payload.stepPath, (step, path, isBranch) => {
      endAttempt(step, path, payload.attempt, at, "succeeded", null);
      if (!isBranch) step.output = view.state.stepOutputs.get(path);
    }),
  StepFailed: (view, { payload, at }) =>
    stepEvent(view, payload.stepPath, (step, path, isBranch) => {
      endAttempt(step, path, payload.attempt, at, "failed", payload.error);
      if (!isBranch) step.error = payload.error;
    }),
  StepSkipped: (view, { payload }) =>
    stepEvent(view, payload.stepPath, (step, _path, isBranch) => {
      if (!isBranch) step.skippedReason = payload.reason;
    }),
  ApprovalRequested: (view, { payload, at }) =>
    stepEvent(
      view,
      payload.stepPath,
      (step, path) => {
        step.approvals.push({
          approvalId: payload.approvalId,
          path,
          tool: payload.tool,
          args: payload.args,
          requestedAt: at,
          expiresAt: payload.expiresAt,
          decidedAt: null,
          decision: null,
          reason: null,
        });
      },
      "waiting",
    ),
  ApprovalDecided: (view, { payload, at }) => {
    const decided = view.state.approvals.get(payload.approvalId)?.decision;
    if (!decided) return;
    for (const step of Object.values(view.steps)) {
      const approval = step.approvals.find((a) => a.approvalId === payload.approvalId);
      if (!approval) continue;
      approval.decidedAt = at;
      approval.decision = decided.decision;
      approval.reason = decided.reason ?? null;
      // The step goes on (an approved call runs; a denied one fails the call, and the step's own events say what follows).
      if (step.status === "waiting") step.status = "running";
      const branch = step.branches.find((b) => b.path === approval.path);
      if (branch?.status === "waiting") branch.status = "running";
    }
  },
};
