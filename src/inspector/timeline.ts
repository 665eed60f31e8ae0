import type { RunEvent } from "../ports/run-events.ts";

/**
 * The run's timeline: one entry per thing that took time (a compile, a session, a model or tool
 * call, a step attempt) paired from its start and end events, plus one entry per instant (a
 * retry, a skip, a version registered, the run's end). A section's occurrences are entries too.
 * Approvals wait from request to decision. Event types this build does not know still get an
 * entry named by their type.
 */

export type TimelineKind = "run" | "compile" | "session" | "fixer" | "model" | "tool" | "approval" | "step" | "retry" | "section" | "other";

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

/**
 * Builds the timeline of a run's events (in seq order).
 *
 * @example
 * timelineOf(events).map((e) => `${e.label} ${durationOf(e)} ms`) // ["compile 812 ms", "model gpt-4o-mini 301 ms", …]
 */
export function timelineOf(events: readonly RunEvent[]): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  const open = new Map<string, TimelineEntry>();
  const sessionPath = new Map<string, string | null>();
  const push = (entry: Omit<TimelineEntry, "endedAt" | "outcome" | "detail"> & Partial<TimelineEntry>, key?: string) => {
    const full: TimelineEntry = { endedAt: null, outcome: "running", detail: null, ...entry };
    entries.push(full);
    if (key !== undefined) open.set(key, full);
    return full;
  };
  const instant = (
    event: RunEvent,
    kind: TimelineKind,
    label: string,
    outcome: TimelineEntry["outcome"],
    detail: string | null,
    stepPath = null as string | null,
  ) => push({ seq: event.seq, kind, label, startedAt: event.at, endedAt: event.at, outcome, detail, stepPath });
  const close = (key: string, at: number, outcome: TimelineEntry["outcome"], detail: string | null = null) => {
    const entry = open.get(key);
    if (!entry) return;
    entry.endedAt = at;
    entry.outcome = outcome;
    if (detail !== null) entry.detail = detail;
    open.delete(key);
  };

  for (const event of events) {
    switch (event.type) {
      case "RunRequested":
        push({ seq: event.seq, kind: "run", label: `run of ${event.payload.workflowId}`, startedAt: event.at, stepPath: null }, "run");
        push({ seq: event.seq, kind: "compile", label: "compile", startedAt: event.at, stepPath: null }, "compile");
        break;
      case "harness.session.started": {
        const p = event.payload;
        sessionPath.set(p.sessionId, p.stepPath ?? null);
        const kind: TimelineKind = p.role === "fixer" ? "fixer" : "session";
        const label = p.stepPath ? `${p.role} session for ${p.stepPath}` : `${p.role} session`;
        push({ seq: event.seq, kind, label, startedAt: event.at, stepPath: p.stepPath ?? null }, `session:${p.sessionId}`);
        break;
      }
      case "harness.session.completed":
        close(`session:${event.payload.sessionId}`, event.at, "ok");
        break;
      case "harness.session.failed":
        close(`session:${event.payload.sessionId}`, event.at, "failed", `${event.payload.causeCode}: ${event.payload.message}`);
        break;
      case "harness.model.called": {
        const p = event.payload;
        push(
          {
            seq: event.seq,
            kind: "model",
            label: `model ${p.modelSlotId} (turn ${p.turn})`,
            startedAt: event.at,
            stepPath: sessionPath.get(p.sessionId) ?? null,
          },
          `model:${p.sessionId}:${p.callId}`,
        );
        break;
      }
      case "harness.model.responded": {
        const u = event.payload.usage;
        close(
          `model:${event.payload.sessionId}:${event.payload.callId}`,
          event.at,
          "ok",
          `${u.inputTokens} in / ${u.outputTokens} out tokens`,
        );
        break;
      }
      case "harness.model.failed":
        close(`model:${event.payload.sessionId}:${event.payload.callId}`, event.at, "failed", event.payload.error.message);
        break;
      case "harness.tool_call.started": {
        const p = event.payload;
        push(
          { seq: event.seq, kind: "tool", label: `tool ${p.tool}`, startedAt: event.at, stepPath: sessionPath.get(p.sessionId) ?? null },
          `tool:${p.sessionId}:${p.callId}`,
        );
        break;
      }
      case "harness.tool_call.succeeded":
        close(`tool:${event.payload.sessionId}:${event.payload.callId}`, event.at, "ok");
        break;
      case "harness.tool_call.failed":
        close(`tool:${event.payload.sessionId}:${event.payload.callId}`, event.at, "failed", event.payload.error.message);
        break;
      case "WorkflowVersionRegistered":
        instant(event, "compile", `version ${event.payload.versionId} registered`, "info", null);
        break;
      case "RunStarted":
        close("compile", event.at, "ok");
        if (event.payload.cycle > 1) instant(event, "run", `cycle ${event.payload.cycle} started`, "info", null);
        break;
      case "StepScheduled":
        break; // the attempt's entry says when it started; scheduling alone adds noise
      case "StepStarted": {
        const p = event.payload;
        push(
          { seq: event.seq, kind: "step", label: `step ${p.stepPath} attempt ${p.attempt}`, startedAt: event.at, stepPath: p.stepPath },
          `step:${p.stepPath}:${p.attempt}`,
        );
        break;
      }
      case "StepSucceeded":
        close(`step:${event.payload.stepPath}:${event.payload.attempt}`, event.at, "ok");
        break;
      case "StepFailed":
        close(`step:${event.payload.stepPath}:${event.payload.attempt}`, event.at, "failed", event.payload.error.message);
        break;
      case "StepRetried": {
        const p = event.payload;
        close(`step:${p.stepPath}:${p.attempt}`, event.at, "failed", p.error.message);
        instant(
          event,
          "retry",
          `retry ${p.stepPath} (attempt ${p.attempt + 1})`,
          "info",
          `after ${Math.max(0, p.retryAt - event.at)} ms`,
          p.stepPath,
        );
        break;
      }
      case "StepSkipped":
        instant(event, "step", `step ${event.payload.stepPath} skipped`, "info", event.payload.reason, event.payload.stepPath);
        break;
      case "OuterLoopCycleCompleted":
        instant(
          event,
          "run",
          `cycle ${event.payload.cycleNumber} ${event.payload.status}: ${event.payload.decision}`,
          "info",
          event.payload.summary ?? null,
        );
        break;
      case "ApprovalRequested": {
        const p = event.payload;
        push(
          { seq: event.seq, kind: "approval", label: `approval of ${p.tool} for ${p.stepPath}`, startedAt: event.at, stepPath: p.stepPath },
          `approval:${p.approvalId}`,
        );
        break;
      }
      case "ApprovalDecided": {
        const p = event.payload;
        close(
          `approval:${p.approvalId}`,
          event.at,
          p.decision === "approved" ? "ok" : "failed",
          `${p.decision}${p.reason ? `: ${p.reason}` : ""}`,
        );
        break;
      }
      case "OccurrenceQueued":
        instant(event, "section", `occurrence ${event.payload.occurrenceId} queued`, "info", `trigger ${event.payload.trigger.kind}`);
        break;
      case "OccurrenceStarted":
        push(
          { seq: event.seq, kind: "section", label: `occurrence ${event.payload.occurrenceId}`, startedAt: event.at, stepPath: null },
          `occurrence:${event.payload.occurrenceId}`,
        );
        break;
      case "OccurrenceCompleted":
        close(`occurrence:${event.payload.occurrenceId}`, event.at, "ok");
        break;
      case "OccurrenceFailed": {
        const p = event.payload;
        close(
          `occurrence:${p.occurrenceId}`,
          event.at,
          "failed",
          `${p.causeCode}: ${p.message}${p.rearmed ? " (the section goes on)" : ""}`,
        );
        break;
      }
      case "RunCompleted":
        closeAll(open, event.at, "ok");
        instant(event, "run", "run completed", "ok", null);
        break;
      case "RunFailed":
        closeAll(open, event.at, "failed");
        instant(event, "run", "run failed", "failed", `${event.payload.causeCode}: ${event.payload.message}`);
        break;
      case "RunCancelled":
        closeAll(open, event.at, "failed");
        instant(event, "run", "run cancelled", "failed", event.payload.reason);
        break;
      default: {
        const type: string = (event as { type: string }).type;
        instant(event, /section|occurrence/i.test(type) ? "section" : "other", type, "info", null);
      }
    }
  }
  return entries;
}

/** The run has ended: whatever is still open ended with it, as the run did. */
function closeAll(open: Map<string, TimelineEntry>, at: number, outcome: TimelineEntry["outcome"]): void {
  for (const entry of open.values()) {
    entry.endedAt = at;
    entry.outcome = outcome;
  }
  open.clear();
}
