import type { HarnessRole, RecordedError, RunCauseCode, RunEvent, RunStatus, TokenUsage } from "../ports/run-events.ts";
import { parseStepPath } from "./step-path.ts";

/**
 * What the inspector shows of a run, folded from its events: the run's status, each step's status
 * (one node per step id, for the latest outer-loop cycle), attempts, fan-out branches, and the
 * model and tool calls of the sessions that ran for a step. Pure, so the browser and the tests run
 * the same code; the page applies each event from the live stream as it arrives.
 */

/**
 * A node's colour. `waiting`: a tool call of the step waits for an approval; `stopped`: it was in
 * flight when the run failed or was cancelled.
 */
export type StepStatus = "pending" | "scheduled" | "running" | "waiting" | "retrying" | "succeeded" | "failed" | "skipped" | "stopped";

export type CallStatus = "running" | "succeeded" | "failed";

export type ModelCallView = {
  readonly callId: string;
  readonly sessionId: string;
  readonly turn: number;
  readonly modelSlotId: string;
  readonly providerId: string;
  readonly modelId: string;
  readonly startedAt: number;
  endedAt: number | null;
  status: CallStatus;
  offline: boolean | null;
  usage: TokenUsage | null;
  error: RecordedError | null;
};

export type ToolCallView = {
  readonly callId: string;
  readonly sessionId: string;
  readonly tool: string;
  readonly args: unknown;
  readonly startedAt: number;
  endedAt: number | null;
  status: CallStatus;
  result: unknown;
  error: RecordedError | null;
};

export type SessionView = {
  readonly sessionId: string;
  readonly role: HarnessRole;
  readonly stepPath: string | null;
  readonly startedAt: number;
  endedAt: number | null;
  status: CallStatus;
  failure: { readonly causeCode: RunCauseCode; readonly message: string } | null;
};

export type AttemptView = {
  readonly path: string;
  readonly attempt: number;
  readonly startedAt: number;
  endedAt: number | null;
  outcome: "running" | "succeeded" | "failed" | "retried";
  error: RecordedError | null;
};

export type ApprovalView = {
  readonly approvalId: string;
  readonly path: string;
  readonly tool: string;
  readonly args: unknown;
  readonly requestedAt: number;
  readonly expiresAt: number;
  decidedAt: number | null;
  decision: "approved" | "denied" | null;
  reason: string | null;
};

export type BranchView = { readonly key: string; readonly path: string; status: StepStatus };

export type StepView = {
  readonly id: string;
  status: StepStatus;
  /** Loop visits seen (1 unless a decision sent the run back to this step). */
  visits: number;
  attempts: AttemptView[];
  branches: BranchView[];
  /** `undefined` until the step succeeds. */
  output: unknown;
  error: RecordedError | null;
  skippedReason: string | null;
  modelCalls: ModelCallView[];
  toolCalls: ToolCallView[];
  sessions: SessionView[];
  approvals: ApprovalView[];
};

/** One occurrence of a section (a run serving many triggers). */
export type OccurrenceView = {
  readonly id: string;
  status: "queued" | "running" | "completed" | "failed";
  startedAt: number | null;
  endedAt: number | null;
  output: unknown;
  failure: { readonly causeCode: RunCauseCode; readonly message: string } | null;
};

export type RunFailure = { readonly causeCode: RunCauseCode; readonly message: string; readonly details?: unknown };

export type RunView = {
  lastSeq: number;
  status: RunStatus;
  workflowId: string | null;
  input: unknown;
  requestedAt: number | null;
  startedAt: number | null;
  endedAt: number | null;
  cycle: number;
  /** The section occurrence the steps belong to (the latest started), or null outside sections. */
  occurrence: string | null;
  occurrences: OccurrenceView[];
  versionId: string | null;
  version: { readonly versionHash: string; readonly lockHash: string; readonly definitionHash: string } | null;
  steps: Record<string, StepView>;
  /** Planner sessions and their calls: the compile stages. */
  planner: { sessions: SessionView[]; modelCalls: ModelCallView[]; toolCalls: ToolCallView[] };
  output: unknown;
  failure: RunFailure | null;
  cancelReason: string | null;
  /** RunCompleted's usage, else the sum over the responded model calls so far. */
  usage: TokenUsage;
  /**
   * Models the offline model answered for (`provider/model`), over every cycle and occurrence:
   * the page flags the run when `LITTLE_MODELS=auto` fell back (or the Worker runs offline).
   */
  offlineModels: string[];
};

/** A run before its first event. */
export function emptyRunView(): RunView {
  return {
    lastSeq: 0,
    status: "pending",
    workflowId: null,
    input: undefined,
    requestedAt: null,
    startedAt: null,
    endedAt: null,
    cycle: 1,
    occurrence: null,
    occurrences: [],
    versionId: null,
    version: null,
    steps: {},
    planner: { sessions: [], modelCalls: [], toolCalls: [] },
    output: undefined,
    failure: null,
    cancelReason: null,
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: 0 },
    offlineModels: [],
  };
}

/**
 * Folds events into a view.
 *
 * @example
 * const view = reduceRunEvents(events);
 * view.steps.summarize?.status // "succeeded"
 */
export function reduceRunEvents(events: readonly RunEvent[], view: RunView = emptyRunView()): RunView {
  for (const event of events) applyRunEvent(view, event);
  return view;
}

/** Where a session's calls go: the planner's list, or the step its stepPath names. */
type CallOwner = { modelCalls: ModelCallView[]; toolCalls: ToolCallView[] };

/**
 * Applies one event to `view` in place (the live page applies thousands; copying each time buys
 * nothing). Events at or below `view.lastSeq` are ignored, so a resumed stream that repeats some
 * is harmless; event types it does not know only advance `lastSeq`.
 */
export function applyRunEvent(view: RunView, event: RunEvent): void {
  if (event.seq <= view.lastSeq) return;
  view.lastSeq = event.seq;
  switch (event.type) {
    case "RunRequested":
      view.workflowId = event.payload.workflowId;
      view.input = event.payload.input;
      view.requestedAt = event.at;
      return;
    case "harness.session.started": {
      const p = event.payload;
      if (view.status === "pending" && p.role === "planner") view.status = "compiling";
      const session: SessionView = {
        sessionId: p.sessionId,
        role: p.role,
        stepPath: p.stepPath ?? null,
        startedAt: event.at,
        endedAt: null,
        status: "running",
        failure: null,
      };
      if (p.stepPath === undefined) view.planner.sessions.push(session);
      else stepFor(view, p.stepPath)?.sessions.push(session);
      return;
    }
    case "harness.session.completed":
    case "harness.session.failed": {
      const session = findSession(view, event.payload.sessionId);
      if (!session) return;
      session.endedAt = event.at;
      session.status = event.type === "harness.session.completed" ? "succeeded" : "failed";
      if (event.type === "harness.session.failed") session.failure = { causeCode: event.payload.causeCode, message: event.payload.message };
      return;
    }
    case "harness.model.called": {
      const p = event.payload;
      ownerOf(view, p.sessionId).modelCalls.push({
        callId: p.callId,
        sessionId: p.sessionId,
        turn: p.turn,
        modelSlotId: p.modelSlotId,
        providerId: p.providerId,
        modelId: p.modelId,
        startedAt: event.at,
        endedAt: null,
        status: "running",
        offline: null,
        usage: null,
        error: null,
      });
      return;
    }
    case "harness.model.responded": {
      const call = ownerOf(view, event.payload.sessionId).modelCalls.find((c) => c.callId === event.payload.callId);
      addUsage(view, event.payload.usage);
      const answered = `${event.payload.model.providerId}/${event.payload.model.modelId}`;
      if (event.payload.model.offline && !view.offlineModels.includes(answered)) view.offlineModels.push(answered);
      if (!call) return;
      call.endedAt = event.at;
      call.status = "succeeded";
      call.usage = event.payload.usage;
      call.offline = event.payload.model.offline;
      return;
    }
    case "harness.model.failed": {
      const call = ownerOf(view, event.payload.sessionId).modelCalls.find((c) => c.callId === event.payload.callId);
      if (!call) return;
      call.endedAt = event.at;
      call.status = "failed";
      call.error = event.payload.error;
      return;
    }
    case "harness.tool_call.started": {
      const p = event.payload;
      ownerOf(view, p.sessionId).toolCalls.push({
        callId: p.callId,
        sessionId: p.sessionId,
        tool: p.tool,
        args: p.args,
        startedAt: event.at,
        endedAt: null,
        status: "running",
        result: undefined,
        error: null,
      });
      return;
    }
    case "harness.tool_call.succeeded":
    case "harness.tool_call.failed": {
      const call = ownerOf(view, event.payload.sessionId).toolCalls.find((c) => c.callId === event.payload.callId);
      if (!call) return;
      call.endedAt = event.at;
      if (event.type === "harness.tool_call.succeeded") {
        call.status = "succeeded";
        call.result = event.payload.result;
      } else {
        call.status = "failed";
        call.error = event.payload.error;
      }
      return;
    }
    case "WorkflowVersionRegistered":
      view.versionId = event.payload.versionId;
      view.version = {
        versionHash: event.payload.versionHash,
        lockHash: event.payload.lockHash,
        definitionHash: event.payload.definitionHash,
      };
      return;
    case "RunStarted":
      if (event.payload.cycle > view.cycle) {
        // A replanned cycle runs a new version: its steps start over.
        view.cycle = event.payload.cycle;
        view.steps = {};
      }
      view.versionId = event.payload.versionId;
      view.startedAt ??= event.at;
      view.status = "running";
      return;
    case "StepScheduled":
      stepEvent(view, event.payload.stepPath, (status) => (status === "pending" ? "scheduled" : status));
      return;
    case "StepStarted":
      stepEvent(
        view,
        event.payload.stepPath,
        () => "running",
        (step, path) => {
          step.attempts.push({ path, attempt: event.payload.attempt, startedAt: event.at, endedAt: null, outcome: "running", error: null });
        },
      );
      return;
    case "StepRetried":
      stepEvent(
        view,
        event.payload.stepPath,
        () => "retrying",
        (step, path) => {
          endAttempt(step, path, event.payload.attempt, event.at, "retried", event.payload.error);
        },
      );
      return;
    case "StepSucceeded":
      stepEvent(
        view,
        event.payload.stepPath,
        () => "succeeded",
        (step, path, isBranch) => {
          endAttempt(step, path, event.payload.attempt, event.at, "succeeded", null);
          if (!isBranch) step.output = event.payload.output;
        },
      );
      return;
    case "StepFailed":
      stepEvent(
        view,
        event.payload.stepPath,
        () => "failed",
        (step, path, isBranch) => {
          endAttempt(step, path, event.payload.attempt, event.at, "failed", event.payload.error);
          if (!isBranch) step.error = event.payload.error;
        },
      );
      return;
    case "StepSkipped":
      stepEvent(
        view,
        event.payload.stepPath,
        () => "skipped",
        (step, _path, isBranch) => {
          if (!isBranch) step.skippedReason = event.payload.reason;
        },
      );
      return;
    case "ApprovalRequested": {
      const p = event.payload;
      stepEvent(
        view,
        p.stepPath,
        () => "waiting",
        (step, path) => {
          step.approvals.push({
            approvalId: p.approvalId,
            path,
            tool: p.tool,
            args: p.args,
            requestedAt: event.at,
            expiresAt: p.expiresAt,
            decidedAt: null,
            decision: null,
            reason: null,
          });
        },
      );
      return;
    }
    case "ApprovalDecided": {
      for (const step of Object.values(view.steps)) {
        const approval = step.approvals.find((a) => a.approvalId === event.payload.approvalId);
        if (!approval) continue;
        approval.decidedAt = event.at;
        approval.decision = event.payload.decision;
        approval.reason = event.payload.reason ?? null;
        // The step goes on (an approved call runs; a denied one fails the call, and the step's own events say what follows).
        if (step.status === "waiting") step.status = "running";
        const branch = step.branches.find((b) => b.path === approval.path);
        if (branch?.status === "waiting") branch.status = "running";
      }
      return;
    }
    case "OccurrenceQueued":
      occurrenceOf(view, event.payload.occurrenceId);
      return;
    case "OccurrenceStarted": {
      const occurrence = occurrenceOf(view, event.payload.occurrenceId);
      occurrence.status = "running";
      occurrence.startedAt = event.at;
      // The DAG shows the occurrence in progress: its steps start over.
      view.occurrence = occurrence.id;
      view.steps = {};
      if (view.status === "waiting") view.status = "running";
      return;
    }
    case "OccurrenceCompleted":
    case "OccurrenceFailed": {
      const occurrence = occurrenceOf(view, event.payload.occurrenceId);
      occurrence.endedAt = event.at;
      if (event.type === "OccurrenceCompleted") {
        occurrence.status = "completed";
        occurrence.output = event.payload.output;
      } else {
        occurrence.status = "failed";
        occurrence.failure = { causeCode: event.payload.causeCode, message: event.payload.message };
      }
      // Between occurrences a section's run waits for the next trigger (a failure that ends the run is followed by RunFailed).
      if (view.status === "running") view.status = "waiting";
      return;
    }
    case "RunCompleted":
      view.status = "completed";
      view.endedAt = event.at;
      view.output = event.payload.output;
      view.usage = event.payload.usage;
      return;
    case "RunFailed":
      view.status = "failed";
      view.endedAt = event.at;
      view.failure = {
        causeCode: event.payload.causeCode,
        message: event.payload.message,
        ...(event.payload.details !== undefined ? { details: event.payload.details } : {}),
      };
      stopInFlight(view);
      return;
    case "RunCancelled":
      view.status = "cancelled";
      view.endedAt = event.at;
      view.cancelReason = event.payload.reason;
      stopInFlight(view);
      return;
    default:
      return;
  }
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
function stepFor(view: RunView, path: string): StepView | null {
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
 * A step event: a branch path moves its branch's status, the step's own path the step's. A later
 * loop visit starts the step's status over.
 */
function stepEvent(
  view: RunView,
  path: string,
  next: (status: StepStatus) => StepStatus,
  also?: (step: StepView, path: string, isBranch: boolean) => void,
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
    branch.status = next(branch.status);
    if (step.status === "pending" || step.status === "scheduled") step.status = "running";
  } else {
    if (parts.visit > step.visits) {
      step.visits = parts.visit;
      step.status = "pending";
      step.error = null;
      step.skippedReason = null;
    }
    if (parts.visit === step.visits) step.status = next(step.status);
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

function occurrenceOf(view: RunView, id: string): OccurrenceView {
  let occurrence = view.occurrences.find((o) => o.id === id);
  if (!occurrence) {
    occurrence = { id, status: "queued", startedAt: null, endedAt: null, output: undefined, failure: null };
    view.occurrences.push(occurrence);
  }
  return occurrence;
}

function findSession(view: RunView, sessionId: string): SessionView | undefined {
  const planner = view.planner.sessions.find((s) => s.sessionId === sessionId);
  if (planner) return planner;
  for (const step of Object.values(view.steps)) {
    const found = step.sessions.find((s) => s.sessionId === sessionId);
    if (found) return found;
  }
  return undefined;
}

/** Calls of a step's worker or fixer session go to that step; everything else to the planner. */
function ownerOf(view: RunView, sessionId: string): CallOwner {
  for (const step of Object.values(view.steps)) if (step.sessions.some((s) => s.sessionId === sessionId)) return step;
  return view.planner;
}

function addUsage(view: RunView, usage: TokenUsage): void {
  const u = view.usage;
  view.usage = {
    inputTokens: u.inputTokens + usage.inputTokens,
    outputTokens: u.outputTokens + usage.outputTokens,
    totalTokens: u.totalTokens + usage.totalTokens,
    costUsd: u.costUsd === null || usage.costUsd === null ? null : u.costUsd + usage.costUsd,
  };
}

const IN_FLIGHT: ReadonlySet<StepStatus> = new Set(["scheduled", "running", "waiting", "retrying"]);

function stopInFlight(view: RunView): void {
  for (const step of Object.values(view.steps)) {
    if (IN_FLIGHT.has(step.status)) step.status = "stopped";
    for (const branch of step.branches) if (IN_FLIGHT.has(branch.status)) branch.status = "stopped";
  }
}
