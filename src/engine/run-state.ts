import { isTerminalType, type RunEvent, type RunEventPayloads, type RunStatus, type RunTrigger } from "../ports/run-events.ts";

/** What the drive loop needs to know about a run, derived from its events alone. */
export type RunState = {
  readonly request: RunEventPayloads["RunRequested"] | null;
  readonly requestedAt: number;
  readonly status: RunStatus;
  readonly terminal: RunEvent | null;
  readonly registered: ReadonlyMap<number, RunEventPayloads["WorkflowVersionRegistered"]>;
  readonly started: ReadonlySet<number>;
  readonly cyclesCompleted: readonly RunEventPayloads["OuterLoopCycleCompleted"][];
  readonly stepOutputs: ReadonlyMap<string, unknown>;
  readonly steps: ReadonlyMap<string, StepProgress>;
  readonly skipped: ReadonlySet<string>;
  readonly scheduled: ReadonlySet<string>;
  /** Approvals requested by tool calls, by approval id, with their decision when made. */
  readonly approvals: ReadonlyMap<string, ApprovalProgress>;
  /** A section's occurrences in arrival order (the first is the run's own input). */
  readonly occurrences: readonly OccurrenceProgress[];
  /**
   * Models answered by the offline model (`provider/model`, first-seen order), from the
   * `offline: true` of `harness.model.responded`: non-empty when `auto` fell back or the Worker
   * runs `offline`, so a run never passes off a fake answer as a real one.
   */
  readonly offlineModels: readonly string[];
};

/** One approval: what was asked, and the decision if one was made. */
export type ApprovalProgress = RunEventPayloads["ApprovalRequested"] & {
  readonly decision?: RunEventPayloads["ApprovalDecided"];
};

/** Where one occurrence of a section stands. */
export type OccurrenceProgress = {
  readonly occurrenceId: string;
  readonly input: unknown;
  readonly trigger: RunTrigger;
  readonly status: "queued" | "running" | "completed" | "failed";
  readonly output?: unknown;
  readonly cause?: { readonly code: string; readonly message: string };
  /** A failed occurrence the section's policy re-armed past (`onBodyFailure: "continue"`). */
  readonly rearmed?: boolean;
};

/** Where one step stands: its latest attempt, and what the log says of it. */
export type StepProgress = {
  readonly attempt: number;
  readonly started: boolean;
  readonly deadline?: number;
  readonly retryAt?: number;
  /** Why the previous attempt failed (a repairing model is told). */
  readonly previousError?: { readonly code: string; readonly message: string };
  /** The step failed for good (`StepFailed`): a resume must not run it again. */
  readonly failed?: { readonly code?: string; readonly message: string; readonly attempt: number };
};

/** Folds events into a {@link RunState}. Pure: the same events always give the same state. */
export function deriveRunState(events: readonly RunEvent[]): RunState {
  let request: RunEventPayloads["RunRequested"] | null = null;
  let requestedAt = 0;
  let status: RunStatus = "pending";
  let terminal: RunEvent | null = null;
  let cycle = 1;
  const registered = new Map<number, RunEventPayloads["WorkflowVersionRegistered"]>();
  const started = new Set<number>();
  const cyclesCompleted: RunEventPayloads["OuterLoopCycleCompleted"][] = [];
  const stepOutputs = new Map<string, unknown>();
  const steps = new Map<string, StepProgress>();
  const skipped = new Set<string>();
  const scheduled = new Set<string>();
  const offlineModels = new Set<string>();
  const occurrences = new Map<string, OccurrenceProgress>();
  const approvals = new Map<string, ApprovalProgress>();
  const setOccurrence = (id: string, change: Partial<OccurrenceProgress>) => {
    const prior = occurrences.get(id);
    if (prior) occurrences.set(id, { ...prior, ...change });
  };
  for (const event of events) {
    switch (event.type) {
      case "RunRequested":
        request = event.payload;
        requestedAt = event.at;
        occurrences.set("o1", { occurrenceId: "o1", input: event.payload.input, trigger: event.payload.trigger, status: "queued" });
        break;
      case "ApprovalRequested":
        approvals.set(event.payload.approvalId, event.payload);
        break;
      case "ApprovalDecided": {
        const asked = approvals.get(event.payload.approvalId);
        if (asked) approvals.set(event.payload.approvalId, { ...asked, decision: event.payload });
        break;
      }
      case "OccurrenceQueued":
        occurrences.set(event.payload.occurrenceId, { ...event.payload, status: "queued" });
        // Work is pending again: the section is no longer idle.
        if (status === "waiting") status = "running";
        break;
      case "OccurrenceStarted":
        setOccurrence(event.payload.occurrenceId, { status: "running" });
        status = "running";
        break;
      case "OccurrenceCompleted":
        setOccurrence(event.payload.occurrenceId, { status: "completed", output: event.payload.output });
        status = "waiting";
        break;
      case "OccurrenceFailed":
        setOccurrence(event.payload.occurrenceId, {
          status: "failed",
          cause: { code: event.payload.causeCode, message: event.payload.message },
          rearmed: event.payload.rearmed,
        });
        status = "waiting";
        break;
      case "harness.session.started":
        if (status === "pending") status = "compiling";
        break;
      case "harness.model.responded":
        if (event.payload.model.offline) offlineModels.add(`${event.payload.model.providerId}/${event.payload.model.modelId}`);
        break;
      case "WorkflowVersionRegistered":
        registered.set(cycle, event.payload);
        break;
      case "RunStarted":
        started.add(event.payload.cycle);
        status = "running";
        break;
      case "StepStarted":
        steps.set(event.payload.stepPath, {
          attempt: event.payload.attempt,
          started: true,
          ...(event.payload.deadline !== undefined ? { deadline: event.payload.deadline } : {}),
        });
        break;
      case "StepScheduled":
        scheduled.add(event.payload.stepPath);
        break;
      case "StepSkipped":
        skipped.add(event.payload.stepPath);
        break;
      case "StepRetried":
        steps.set(event.payload.stepPath, {
          attempt: event.payload.attempt + 1,
          started: false,
          retryAt: event.payload.retryAt,
          previousError: { code: event.payload.error.code ?? "", message: event.payload.error.message },
        });
        break;
      case "StepFailed": {
        const prior = steps.get(event.payload.stepPath);
        steps.set(event.payload.stepPath, {
          attempt: event.payload.attempt,
          started: true,
          ...(prior?.deadline !== undefined ? { deadline: prior.deadline } : {}),
          failed: {
            ...(event.payload.error.code ? { code: event.payload.error.code } : {}),
            message: event.payload.error.message,
            attempt: event.payload.attempt,
          },
        });
        break;
      }
      case "StepSucceeded":
        stepOutputs.set(event.payload.stepPath, event.payload.output);
        break;
      case "OuterLoopCycleCompleted":
        cyclesCompleted.push(event.payload);
        cycle = event.payload.cycleNumber + 1;
        status = "compiling";
        break;
      default:
        break;
    }
    if (isTerminalType(event.type)) {
      terminal = event;
      status = event.type === "RunCompleted" ? "completed" : event.type === "RunFailed" ? "failed" : "cancelled";
    }
  }
  return {
    request,
    requestedAt,
    status,
    terminal,
    registered,
    started,
    cyclesCompleted,
    stepOutputs,
    steps,
    skipped,
    scheduled,
    occurrences: [...occurrences.values()],
    approvals,
    offlineModels: [...offlineModels],
  };
}
