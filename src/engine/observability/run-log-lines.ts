/**
 * @module One JSON line per run transition (docs/observability.md, "Logs"): requested, started,
 * step ended, waiting, resumed, ended. Built from the events an append wrote, like the spans;
 * lines name the run, its workflow, version and tenant, its status, duration, usage and cost and
 * its trace id, and never carry inputs, outputs or secrets (no payload is copied wholesale).
 */
import type { RunEvent, TokenUsage } from "../../ports/run-events.ts";
import { parseTraceparent, traceIdOf } from "./trace-context.ts";

export type RunTransition = "requested" | "started" | "step_ended" | "waiting" | "resumed" | "ended";

/** One log line, before `JSON.stringify`. */
export type RunLogLine = {
  readonly msg: "run transition";
  readonly transition: RunTransition;
  readonly runId: string;
  readonly workflowId: string | null;
  readonly versionId: string | null;
  readonly tenant: string | null;
  readonly traceId: string;
  readonly status: string;
  readonly durationMs: number;
  readonly seq: number;
  readonly stepPath?: string;
  readonly attempt?: number;
  readonly waitReason?: string;
  readonly causeCode?: string;
  readonly usage?: TokenUsage;
};

/** What the lines of one run remember between appends (seeded from the log's first event on a fresh object). */
export class RunLogLines {
  private workflowId: string | null = null;
  private tenant: string | null = null;
  private versionId: string | null = null;
  private requestedAt: number | null = null;
  private traceId: string;
  private readonly waits = new Set<string>();
  private readonly runId: string;

  constructor(runId: string) {
    this.runId = runId;
    this.traceId = traceIdOf(runId, null);
  }

  /** Whether the run's request has been seen (else {@link seed} it from the log first). */
  get seeded(): boolean {
    return this.requestedAt !== null;
  }

  /** Remembers what lines need from events written before this object saw any (request, version). */
  seed(events: readonly RunEvent[]): void {
    for (const e of events) this.remember(e);
  }

  /** The lines the events make. */
  linesOf(events: readonly RunEvent[]): RunLogLine[] {
    const out: RunLogLine[] = [];
    for (const e of events) {
      this.remember(e);
      const line = this.transitionOf(e);
      if (line) out.push({ ...this.base(e, line.status ?? "running"), ...line.extra, transition: line.transition });
    }
    return out;
  }

  private remember(e: RunEvent): void {
    if (e.type === "RunRequested") {
      this.workflowId = e.payload.workflowId;
      this.tenant = e.payload.tenant;
      this.requestedAt = e.at;
      this.traceId = traceIdOf(this.runId, parseTraceparent(e.payload.traceparent));
    } else if (e.type === "WorkflowVersionRegistered") this.versionId = e.payload.versionId;
  }

  private transitionOf(e: RunEvent): { transition: RunTransition; status?: string; extra?: Partial<RunLogLine> } | null {
    switch (e.type) {
      case "RunRequested":
        return { transition: "requested", status: "pending" };
      case "RunStarted":
        return { transition: "started", extra: {} };
      case "StepSucceeded":
      case "StepFailed":
        return {
          transition: "step_ended",
          extra: {
            stepPath: e.payload.stepPath,
            attempt: e.payload.attempt,
            ...(e.type === "StepFailed" && e.payload.error.code ? { causeCode: e.payload.error.code } : {}),
          },
        };
      case "ApprovalRequested":
        return this.wait(e.payload.stepPath, "approval");
      case "StepRetried":
        return e.payload.retryAt > e.at ? this.wait(e.payload.stepPath, "sleep") : null;
      case "OccurrenceCompleted":
        return this.wait("occurrence", "trigger");
      case "OccurrenceFailed":
        return e.payload.rearmed ? this.wait("occurrence", "trigger") : null;
      case "ApprovalDecided":
        return this.resume(this.firstWait("approval"));
      case "StepStarted":
        return this.resume(this.waits.has(`sleep:${e.payload.stepPath}`) ? `sleep:${e.payload.stepPath}` : null);
      case "OccurrenceStarted":
        return this.resume(this.waits.has("trigger:occurrence") ? "trigger:occurrence" : null);
      case "RunCompleted":
        return { transition: "ended", status: "completed", extra: { usage: e.payload.usage } };
      case "RunFailed":
        return { transition: "ended", status: "failed", extra: { causeCode: e.payload.causeCode } };
      case "RunCancelled":
        return { transition: "ended", status: "cancelled", extra: {} };
      default:
        return null;
    }
  }

  private wait(key: string, reason: string) {
    this.waits.add(`${reason}:${key}`);
    return {
      transition: "waiting" as const,
      status: "waiting",
      extra: { waitReason: reason, ...(key !== "occurrence" ? { stepPath: key } : {}) },
    };
  }

  private firstWait(reason: string): string | null {
    for (const key of this.waits) if (key.startsWith(`${reason}:`)) return key;
    return null;
  }

  private resume(key: string | null) {
    if (key === null) return null;
    this.waits.delete(key);
    return { transition: "resumed" as const, extra: { waitReason: key.slice(0, key.indexOf(":")) } };
  }

  private base(e: RunEvent, status: string): RunLogLine {
    return {
      msg: "run transition",
      transition: "started",
      runId: this.runId,
      workflowId: this.workflowId,
      versionId: this.versionId,
      tenant: this.tenant,
      traceId: this.traceId,
      status,
      durationMs: this.requestedAt === null ? 0 : Math.max(0, e.at - this.requestedAt),
      seq: e.seq,
    };
  }
}
