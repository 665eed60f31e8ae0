import { applyRunStateEvent, INITIAL_RUN_STATE, RUN_STATE_TRANSITIONS, type RunState } from "../engine/run-state.ts";
import type { RunEvent, RunEventType } from "../ports/run-events.ts";
import { isRecord } from "./api-client.ts";
import { isoTime, type Paint, shortJson } from "./output.ts";

/** A run event as the API sends it; the payload is read defensively (a newer server may add types). */
export type WireEvent = { seq: number; runId: string; type: string; at: number; payload: unknown };

export function isWireEvent(value: unknown): value is WireEvent {
  return isRecord(value) && typeof value.seq === "number" && typeof value.type === "string";
}

/** The width of the type column: the longest event type of the union the engine's fold handles. */
export const TYPE_WIDTH = Math.max(...Object.keys(RUN_STATE_TRANSITIONS).map((type) => type.length));

/**
 * The run as `little events` has seen it: the engine's fold (src/engine/run-state.ts) over the
 * events read so far, so the CLI decides that a run ended exactly as the engine does. A stream
 * read from `--after` folds only what it reads; that is enough to see the end.
 */
export class RunFollower {
  private state: RunState = INITIAL_RUN_STATE;

  /** Folds one event in. One the fold cannot read (a malformed payload) leaves the state as it was. */
  apply(event: WireEvent): void {
    try {
      this.state = applyRunStateEvent(this.state, event as unknown as RunEvent);
    } catch {
      // The server's payloads are read defensively everywhere in the CLI; a bad one only goes unfolded.
    }
  }

  get status(): RunState["status"] {
    return this.state.status;
  }

  /** The run has ended (RunCompleted, RunFailed or RunCancelled was folded in). */
  get ended(): boolean {
    return this.state.terminal !== null;
  }
}

/** One event as one line: seq, time, type, summary. Fixed widths, so streamed lines align too. */
export function formatEventLine(event: WireEvent, paint: Paint): string {
  const seq = String(event.seq).padStart(4);
  const type = event.type.padEnd(TYPE_WIDTH);
  const summary = summarizeEvent(event);
  return `${paint("dim", seq)}  ${paint("dim", isoTime(event.at))}  ${paint(typeFormat(event.type), type)}  ${summary}`.trimEnd();
}

function typeFormat(type: string): Parameters<Paint>[0] {
  if (type === "RunCompleted" || type.endsWith(".succeeded") || type === "StepSucceeded") return "green";
  if (type === "RunFailed" || type.endsWith(".failed") || type === "StepFailed") return "red";
  if (type === "RunCancelled") return "yellow";
  return type.startsWith("harness.") ? "blue" : "cyan";
}

/** Reads a payload defensively (a newer server may send other shapes). */
type Reader = {
  readonly p: Record<string, unknown>;
  str(key: string): string | undefined;
  join(...parts: (string | undefined | false)[]): string;
  error(value: unknown): string | undefined;
  tokens(value: unknown): string | undefined;
  json(): string;
};

function readerOf(event: WireEvent): Reader {
  const p = isRecord(event.payload) ? event.payload : {};
  return {
    p,
    str: (key) => (typeof p[key] === "string" || typeof p[key] === "number" ? String(p[key]) : undefined),
    join: (...parts) => parts.filter((part): part is string => typeof part === "string" && part !== "").join("  "),
    error: (value) => {
      if (!isRecord(value)) return undefined;
      const code = typeof value.code === "string" ? value.code : typeof value.name === "string" ? value.name : undefined;
      const message = typeof value.message === "string" ? value.message : undefined;
      return [code, message].filter(Boolean).join(": ") || undefined;
    },
    tokens: (value) => (isRecord(value) && typeof value.totalTokens === "number" ? `${value.totalTokens} tokens` : undefined),
    json: () => shortJson(event.payload),
  };
}

/** A failed cycle's cause, step and error (`OuterLoopCycleCompleted.failure`). */
function cycleFailure(value: unknown): string | undefined {
  if (!isRecord(value) || typeof value.causeCode !== "string") return undefined;
  const step = typeof value.stepId === "string" ? ` at ${value.stepId}` : "";
  return `${value.causeCode}${step}${typeof value.message === "string" ? `: ${value.message}` : ""}`;
}

const attempt = (r: Reader) => r.str("attempt") && `attempt=${r.str("attempt")}`;
const payloadJson = (r: Reader) => r.json();

/** One summary per event type of the union (exhaustive: a new type must say how it reads). */
const SUMMARIES: { readonly [K in RunEventType]: (r: Reader) => string } = {
  RunRequested: (r) =>
    r.join(
      r.str("workflowId"),
      isRecord(r.p.trigger) && typeof r.p.trigger.kind === "string" && `trigger=${r.p.trigger.kind}`,
      r.str("tenant") && `tenant=${r.str("tenant")}`,
    ),
  WorkflowVersionRegistered: (r) =>
    r.join(r.str("versionId"), Array.isArray(r.p.warnings) && r.p.warnings.length > 0 && `${r.p.warnings.length} warning(s)`),
  RunStarted: (r) => r.join(r.str("versionId"), r.str("cycle") && `cycle=${r.str("cycle")}`),
  StepScheduled: payloadJson,
  StepStarted: (r) => r.join(r.str("stepPath"), attempt(r)),
  StepSucceeded: (r) => r.join(r.str("stepPath"), attempt(r)),
  StepFailed: (r) => r.join(r.str("stepPath"), attempt(r), r.error(r.p.error)),
  StepRetried: payloadJson,
  StepSkipped: payloadJson,
  OuterLoopCycleCompleted: (r) =>
    r.join(
      r.str("cycleNumber") && `cycle=${r.str("cycleNumber")}`,
      r.str("status"),
      r.str("decision") && `decision=${r.str("decision")}`,
      cycleFailure(r.p.failure),
    ),
  ApprovalRequested: payloadJson,
  ApprovalDecided: payloadJson,
  OccurrenceQueued: payloadJson,
  OccurrenceStarted: payloadJson,
  OccurrenceCompleted: payloadJson,
  OccurrenceFailed: payloadJson,
  RunCompleted: (r) => r.join(r.str("versionId"), r.tokens(r.p.usage)),
  RunFailed: (r) => r.join(r.str("causeCode") && `${r.str("causeCode")}:`, r.str("message")),
  RunCancelled: (r) => r.join(r.str("reason")),
  RunPaused: (r) => r.join(r.str("by") && `by=${r.str("by")}`),
  RunResumed: (r) => r.join(r.str("by") && `by=${r.str("by")}`),
  WaitStarted: (r) =>
    r.join(
      r.str("stepPath"),
      r.str("kind"),
      typeof r.p.until === "number" && `until=${new Date(r.p.until).toISOString()}`,
      Array.isArray(r.p.signals) && `signals=${r.p.signals.map((s) => (isRecord(s) ? String(s.name) : "?")).join(",")}`,
    ),
  SignalReceived: (r) => r.join(r.str("name"), r.str("signalId")),
  SignalConsumed: (r) => r.join(r.str("signalId"), r.str("stepPath") && `by=${r.str("stepPath")}`),
  ChildRunStarted: (r) => r.join(r.str("stepPath"), attempt(r), r.str("workflowId"), r.str("childRunId") && `child=${r.str("childRunId")}`),
  ChildRunEnded: (r) =>
    r.join(
      r.str("stepPath"),
      r.str("childRunId") && `child=${r.str("childRunId")}`,
      r.str("status"),
      isRecord(r.p.cause) && typeof r.p.cause.code === "string" && `${r.p.cause.code}`,
    ),
  FlowQueued: (r) => r.join(r.str("kind"), r.str("key") && `key=${r.str("key")}`, r.str("position") && `position=${r.str("position")}`),
  FlowAdmitted: (r) => r.join(r.str("kind"), r.str("key") && `key=${r.str("key")}`),
  ModelRateLimited: (r) =>
    r.join(r.str("stepPath"), `${r.str("providerId")}/${r.str("modelId")}`, typeof r.p.until === "number" && `until=${isoTime(r.p.until)}`),
  ModelRateLimitLifted: (r) => r.join(r.str("stepPath"), `${r.str("providerId")}/${r.str("modelId")}`),
  "harness.session.started": (r) =>
    r.join(r.str("sessionId"), r.str("role") && `role=${r.str("role")}`, r.str("kind") && `kind=${r.str("kind")}`, r.str("stepPath")),
  "harness.session.completed": (r) => r.join(r.str("sessionId"), r.str("role") && `role=${r.str("role")}`, fixSummary(r.p.output)),
  "harness.session.failed": (r) => r.join(r.str("sessionId"), r.str("causeCode") && `${r.str("causeCode")}:`, r.str("message")),
  "harness.model.called": (r) =>
    r.join(
      r.str("callId"),
      r.str("providerId") && r.str("modelId") ? `${r.str("providerId")}/${r.str("modelId")}` : r.str("modelSlotId"),
      r.str("turn") && `turn=${r.str("turn")}`,
    ),
  "harness.model.responded": (r) => r.join(r.str("callId"), r.tokens(r.p.usage)),
  "harness.model.failed": (r) => r.join(r.str("callId"), r.error(r.p.error)),
  "harness.tool_call.started": (r) => r.join(r.str("tool"), r.str("callId")),
  "harness.tool_call.succeeded": (r) => r.join(r.str("tool"), r.str("callId")),
  "harness.tool_call.failed": (r) => r.join(r.str("tool"), r.str("callId"), r.error(r.p.error)),
};

/** A short, human summary of an event's payload: the fields one looks for first (its JSON for a type this build does not know). */
export function summarizeEvent(event: WireEvent): string {
  const summary = Object.hasOwn(SUMMARIES, event.type) ? SUMMARIES[event.type as RunEventType] : payloadJson;
  return summary(readerOf(event));
}

/** A fixer's repair in one line: what failed, and the entrypoint's digest before and after. */
function fixSummary(output: unknown): string | undefined {
  if (!isRecord(output) || output.entrypointReplaced !== true || !isRecord(output.failure)) return undefined;
  const short = (digest: unknown) => (typeof digest === "string" ? digest.slice(0, 19) : "?");
  const failure = output.failure;
  const message = typeof failure.message === "string" ? failure.message.replace(/\s+/g, " ").slice(0, 100) : "";
  return `repaired ${String(failure.code)}: ${message}  ${String(output.entrypoint)} ${short(output.sourceSha256)}… -> ${short(output.fixedSha256)}…`;
}

/**
 * Whether a type matches a `--type` filter: comma-separated names, each exact or a prefix glob
 * ending in "*" (`harness.*`). The same rule the server applies to `?type=`.
 */
export function typeMatcher(filter: string | undefined): (type: string) => boolean {
  if (filter === undefined) return () => true;
  const patterns = filter
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");
  if (patterns.length === 0) return () => true;
  return (type) => patterns.some((pattern) => (pattern.endsWith("*") ? type.startsWith(pattern.slice(0, -1)) : type === pattern));
}
