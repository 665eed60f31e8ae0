import { applyRunStateEvent, INITIAL_RUN_STATE, type RunState } from "../engine/run-state.ts";
import type { RunEvent, RunEventType } from "../ports/run-events.ts";

/**
 * The run's timeline: one entry per thing that took time (a compile, a session, a model or tool
 * call, a step attempt) paired from its start and end events, plus one entry per instant (a
 * retry, a skip, a version registered, the run's end). A section's occurrences are entries too.
 * Approvals wait from request to decision. Built on the engine's fold (src/engine/run-state.ts):
 * each event advances the run's state first, and what the state says (a replan compiling again,
 * the run's end and how it ended, an occurrence's trigger) is read from it, not worked out anew.
 * Event types this build does not know still get an entry named by their type.
 */

export type TimelineKind =
  | "run"
  | "compile"
  | "session"
  | "fixer"
  | "model"
  | "tool"
  | "approval"
  | "step"
  | "retry"
  | "section"
  | "other"
  | "wait"
  | "child"
  | "queue"
  | "pause";

export type TimelineEntry = {
  /** The seq of the event that opened the entry (entries are in this order). */
  readonly seq: number;
  readonly kind: TimelineKind;
  readonly label: string;
  readonly startedAt: number;
  /** Null while it is still going; equal to `startedAt` for an instant. */
  endedAt: number | null;
  outcome: "running" | "ok" | "failed" | "info";
  /** The step path it belongs to, when it belongs to one. */
  readonly stepPath: string | null;
  detail: string | null;
};

/** Milliseconds an entry took, or null while it runs. */
export function durationOf(entry: TimelineEntry): number | null {
  return entry.endedAt === null ? null : entry.endedAt - entry.startedAt;
}

/** The entries so far, the open ones by key, and the run's state after the current event. */
class Timeline {
  readonly entries: TimelineEntry[] = [];
  readonly sessionPath = new Map<string, string | null>();
  private readonly open = new Map<string, TimelineEntry>();
  state: RunState = INITIAL_RUN_STATE;

  /** Opens an entry that a later event closes by `key`. */
  begin(event: RunEvent, key: string, kind: TimelineKind, label: string, stepPath: string | null = null): void {
    const entry: TimelineEntry = {
      seq: event.seq,
      kind,
      label,
      startedAt: event.at,
      endedAt: null,
      outcome: "running",
      stepPath,
      detail: null,
    };
    this.entries.push(entry);
    this.open.set(key, entry);
  }

  instant(
    event: RunEvent,
    kind: TimelineKind,
    label: string,
    outcome: TimelineEntry["outcome"],
    detail: string | null,
    stepPath: string | null = null,
  ) {
    this.entries.push({ seq: event.seq, kind, label, startedAt: event.at, endedAt: event.at, outcome, stepPath, detail });
  }

  close(key: string, at: number, outcome: TimelineEntry["outcome"], detail: string | null = null): void {
    const entry = this.open.get(key);
    if (!entry) return;
    entry.endedAt = at;
    entry.outcome = outcome;
    if (detail !== null) entry.detail = detail;
    this.open.delete(key);
  }

  /** The run has ended: whatever is still open ended with it, as the run did. */
  closeAll(at: number, outcome: TimelineEntry["outcome"]): void {
    for (const entry of this.open.values()) {
      entry.endedAt = at;
      entry.outcome = outcome;
    }
    this.open.clear();
  }
}

/** What an event of type `K` adds to the timeline (after the fold applied it: `t.state`). */
type Entry<K extends RunEventType> = (t: Timeline, event: RunEvent<K>) => void;

/** The run's end, as the fold has it: everything still open closes with the run's outcome. */
const runEnded: Entry<"RunCompleted" | "RunFailed" | "RunCancelled"> = (t, event) => {
  const outcome = t.state.status === "completed" ? "ok" : "failed";
  t.closeAll(event.at, outcome);
  const detail =
    event.type === "RunFailed"
      ? `${event.payload.causeCode}: ${event.payload.message}`
      : event.type === "RunCancelled"
        ? event.payload.reason
        : null;
  t.instant(event, "run", `run ${t.state.status}`, outcome, detail);
};

const ENTRIES: { readonly [K in RunEventType]: Entry<K> } = {
  RunRequested: (t, event) => {
    t.begin(event, "run", "run", `run of ${event.payload.workflowId}`);
    t.begin(event, "compile", "compile", "compile");
  },
  "harness.session.started": (t, event) => {
    const p = event.payload;
    t.sessionPath.set(p.sessionId, p.stepPath ?? null);
    const label = p.stepPath ? `${p.role} session for ${p.stepPath}` : `${p.role} session`;
    t.begin(event, `session:${p.sessionId}`, p.role === "fixer" ? "fixer" : "session", label, p.stepPath ?? null);
  },
  "harness.session.completed": (t, { payload, at }) => t.close(`session:${payload.sessionId}`, at, "ok"),
  "harness.session.failed": (t, { payload, at }) =>
    t.close(`session:${payload.sessionId}`, at, "failed", `${payload.causeCode}: ${payload.message}`),
  "harness.model.called": (t, event) => {
    const p = event.payload;
    t.begin(
      event,
      `model:${p.sessionId}:${p.callId}`,
      "model",
      `model ${p.modelSlotId} (turn ${p.turn})`,
      t.sessionPath.get(p.sessionId) ?? null,
    );
  },
  "harness.model.responded": (t, { payload: p, at }) =>
    t.close(`model:${p.sessionId}:${p.callId}`, at, "ok", `${p.usage.inputTokens} in / ${p.usage.outputTokens} out tokens`),
  "harness.model.failed": (t, { payload: p, at }) => t.close(`model:${p.sessionId}:${p.callId}`, at, "failed", p.error.message),
  "harness.tool_call.started": (t, event) => {
    const p = event.payload;
    t.begin(event, `tool:${p.sessionId}:${p.callId}`, "tool", `tool ${p.tool}`, t.sessionPath.get(p.sessionId) ?? null);
  },
  "harness.tool_call.succeeded": (t, { payload: p, at }) => t.close(`tool:${p.sessionId}:${p.callId}`, at, "ok"),
  "harness.tool_call.failed": (t, { payload: p, at }) => t.close(`tool:${p.sessionId}:${p.callId}`, at, "failed", p.error.message),
  WorkflowVersionRegistered: (t, event) => t.instant(event, "compile", `version ${event.payload.versionId} registered`, "info", null),
  RunStarted: (t, event) => {
    t.close("compile", event.at, "ok");
    if (event.payload.cycle > 1) t.instant(event, "run", `cycle ${event.payload.cycle} started`, "info", null);
  },
  // The attempt's entry says when it started; scheduling alone adds noise.
  StepScheduled: () => {},
  StepStarted: (t, event) => {
    const p = event.payload;
    t.begin(event, `step:${p.stepPath}:${p.attempt}`, "step", `step ${p.stepPath} attempt ${p.attempt}`, p.stepPath);
  },
  StepSucceeded: (t, { payload: p, at }) => {
    t.close(`wait:${p.stepPath}`, at, "ok");
    t.close(`step:${p.stepPath}:${p.attempt}`, at, "ok");
  },
  StepFailed: (t, { payload: p, at }) => t.close(`step:${p.stepPath}:${p.attempt}`, at, "failed", p.error.message),
  StepRetried: (t, event) => {
    const p = event.payload;
    t.close(`step:${p.stepPath}:${p.attempt}`, event.at, "failed", p.error.message);
    t.instant(
      event,
      "retry",
      `retry ${p.stepPath} (attempt ${p.attempt + 1})`,
      "info",
      `after ${Math.max(0, p.retryAt - event.at)} ms`,
      p.stepPath,
    );
  },
  StepSkipped: (t, event) =>
    t.instant(event, "step", `step ${event.payload.stepPath} skipped`, "info", event.payload.reason, event.payload.stepPath),
  OuterLoopCycleCompleted: (t, event) => {
    const p = event.payload;
    const failure = p.failure ? `${p.failure.causeCode}${p.failure.stepId ? ` at ${p.failure.stepId}` : ""}: ${p.failure.message}` : null;
    // A cycle whose planner failed never reached RunStarted: its compile ends here, failed.
    if (failure) t.close("compile", event.at, "failed", failure);
    t.instant(event, "run", `cycle ${p.cycleNumber} ${p.status}: ${p.decision}`, failure ? "failed" : "info", p.summary ?? failure);
    // A replan sends the run back to compiling: the compile of the fold's next cycle begins.
    if (p.decision === "replan" && t.state.status === "compiling") t.begin(event, "compile", "compile", `compile cycle ${t.state.cycle}`);
  },
  ApprovalRequested: (t, event) => {
    const p = event.payload;
    t.begin(event, `approval:${p.approvalId}`, "approval", `approval of ${p.tool} for ${p.stepPath}`, p.stepPath);
  },
  ApprovalDecided: (t, { payload: p, at }) => {
    const decided = t.state.approvals.get(p.approvalId)?.decision ?? p;
    t.close(
      `approval:${p.approvalId}`,
      at,
      decided.decision === "approved" ? "ok" : "failed",
      `${decided.decision}${decided.reason ? `: ${decided.reason}` : ""}`,
    );
  },
  OccurrenceQueued: (t, event) => {
    const queued = t.state.occurrences.find((o) => o.occurrenceId === event.payload.occurrenceId);
    t.instant(
      event,
      "section",
      `occurrence ${event.payload.occurrenceId} queued`,
      "info",
      `trigger ${(queued ?? event.payload).trigger.kind}`,
    );
  },
  OccurrenceStarted: (t, event) =>
    t.begin(event, `occurrence:${event.payload.occurrenceId}`, "section", `occurrence ${event.payload.occurrenceId}`),
  OccurrenceCompleted: (t, { payload, at }) => t.close(`occurrence:${payload.occurrenceId}`, at, "ok"),
  OccurrenceFailed: (t, { payload: p, at }) =>
    t.close(`occurrence:${p.occurrenceId}`, at, "failed", `${p.causeCode}: ${p.message}${p.rearmed ? " (the section goes on)" : ""}`),
  RunCompleted: runEnded,
  RunFailed: runEnded,
  RunCancelled: runEnded,
  WaitStarted: (t, event) => {
    const p = event.payload;
    const label =
      p.kind === "sleep"
        ? `sleep ${p.stepPath} until ${new Date(p.until).toISOString()}`
        : `wait ${p.stepPath} for ${(p.signals ?? []).map((s) => s.name).join(", ")}`;
    t.begin(event, `wait:${p.stepPath}`, "wait", label, p.stepPath);
  },
  SignalReceived: (t, event) => t.instant(event, "wait", `signal ${event.payload.name} received`, "info", event.payload.signalId),
  SignalConsumed: (t, event) =>
    t.instant(event, "wait", `signal ${event.payload.signalId} consumed`, "info", `by ${event.payload.stepPath}`, event.payload.stepPath),
  ChildRunStarted: (t, event) => {
    const p = event.payload;
    t.begin(event, `child:${p.childRunId}`, "child", `child run of ${p.workflowId} for ${p.stepPath}`, p.stepPath);
  },
  ChildRunEnded: (t, { payload: p, at }) =>
    t.close(
      `child:${p.childRunId}`,
      at,
      p.status === "completed" ? "ok" : "failed",
      p.status === "completed" ? p.childRunId : `${p.cause.code}: ${p.cause.message}`,
    ),
  // A queued run's wait in its key's queue, from FlowQueued to the FlowAdmitted of the same gate.
  FlowQueued: (t, event) => {
    const p = event.payload;
    t.begin(event, `flow:${p.gate}:${p.kind}`, "queue", `queued for ${p.kind} key ${p.key}`);
  },
  FlowAdmitted: (t, { payload: p, at }) => t.close(`flow:${p.gate}:${p.kind}`, at, "ok", `admitted by ${p.kind} key ${p.key}`),
  // A model call's wait for its model's shared limit, from ModelRateLimited to ModelRateLimitLifted of the step.
  ModelRateLimited: (t, event) => {
    const p = event.payload;
    t.begin(event, `rate:${p.stepPath}`, "wait", `${p.stepPath}: rate limit of ${p.providerId}/${p.modelId}`);
  },
  ModelRateLimitLifted: (t, { payload: p, at }) => t.close(`rate:${p.stepPath}`, at, "ok", `${p.providerId}/${p.modelId} let the call go`),
  // An operator's pause, from RunPaused to its RunResumed (or the run's end, which closes everything).
  RunPaused: (t, event) => t.begin(event, "pause", "pause", `paused by ${event.payload.by}`),
  RunResumed: (t, { payload, at }) => t.close("pause", at, "ok", `resumed by ${payload.by}`),
};

/**
 * A timeline built one event at a time, for a page that follows a live run: each event is folded
 * once when it arrives, so following a run of n events costs n steps, not the n²/2 of folding the
 * whole log again on every render. The entries are updated in place (an open entry closes later).
 *
 * @example
 * const timeline = new TimelineBuilder();
 * for (const event of batch) timeline.add(event);
 * draw(timeline.entries);
 */
export class TimelineBuilder {
  private readonly timeline = new Timeline();

  /** The entries so far, in the order of the events that opened them. */
  get entries(): readonly TimelineEntry[] {
    return this.timeline.entries;
  }

  /** Folds the run's next event (in seq order) into the entries. */
  add(event: RunEvent): void {
    const t = this.timeline;
    t.state = applyRunStateEvent(t.state, event);
    const entry = ENTRIES[event.type] as Entry<RunEventType> | undefined;
    if (entry) entry(t, event);
    else {
      const type: string = event.type;
      t.instant(event, /section|occurrence/i.test(type) ? "section" : "other", type, "info", null);
    }
  }
}

/**
 * Builds the timeline of a run's events (in seq order).
 *
 * @example
 * timelineOf(events).map((e) => `${e.label} ${durationOf(e)} ms`) // ["compile 812 ms", "model gpt-4o-mini 301 ms", …]
 */
export function timelineOf(events: readonly RunEvent[]): TimelineEntry[] {
  const builder = new TimelineBuilder();
  for (const event of events) builder.add(event);
  return [...builder.entries];
}
