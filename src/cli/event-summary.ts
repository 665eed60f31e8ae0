import { isRecord } from "./api-client.ts";
import { isoTime, type Paint, shortJson } from "./output.ts";

/** A run event as the API sends it; the payload is read defensively (a newer server may add types). */
export type WireEvent = { seq: number; runId: string; type: string; at: number; payload: unknown };

export function isWireEvent(value: unknown): value is WireEvent {
  return isRecord(value) && typeof value.seq === "number" && typeof value.type === "string";
}

/** The width of the type column: the longest event type known today ("harness.tool_call.succeeded"). */
const TYPE_WIDTH = 27;

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

/** A short, human summary of an event's payload: the fields one looks for first. */
export function summarizeEvent(event: WireEvent): string {
  const p = isRecord(event.payload) ? event.payload : {};
  const str = (key: string) => (typeof p[key] === "string" || typeof p[key] === "number" ? String(p[key]) : undefined);
  const join = (...parts: (string | undefined | false)[]) =>
    parts.filter((part): part is string => typeof part === "string" && part !== "").join("  ");
  const error = (value: unknown) => {
    if (!isRecord(value)) return undefined;
    const code = typeof value.code === "string" ? value.code : typeof value.name === "string" ? value.name : undefined;
    const message = typeof value.message === "string" ? value.message : undefined;
    return [code, message].filter(Boolean).join(": ") || undefined;
  };
  const tokens = (value: unknown) => (isRecord(value) && typeof value.totalTokens === "number" ? `${value.totalTokens} tokens` : undefined);
  switch (event.type) {
    case "RunRequested":
      return join(
        str("workflowId"),
        isRecord(p.trigger) && typeof p.trigger.kind === "string" && `trigger=${p.trigger.kind}`,
        str("tenant") && `tenant=${str("tenant")}`,
      );
    case "WorkflowVersionRegistered":
      return join(str("versionId"), Array.isArray(p.warnings) && p.warnings.length > 0 && `${p.warnings.length} warning(s)`);
    case "RunStarted":
      return join(str("versionId"), str("cycle") && `cycle=${str("cycle")}`);
    case "StepStarted":
    case "StepSucceeded":
      return join(str("stepPath"), str("attempt") && `attempt=${str("attempt")}`);
    case "StepFailed":
      return join(str("stepPath"), str("attempt") && `attempt=${str("attempt")}`, error(p.error));
    case "OuterLoopCycleCompleted":
      return join(str("cycleNumber") && `cycle=${str("cycleNumber")}`, str("status"), str("decision") && `decision=${str("decision")}`);
    case "RunCompleted":
      return join(str("versionId"), tokens(p.usage));
    case "RunFailed":
      return join(str("causeCode") && `${str("causeCode")}:`, str("message"));
    case "RunCancelled":
      return join(str("reason"));
    case "harness.session.started":
      return join(str("sessionId"), str("role") && `role=${str("role")}`, str("kind") && `kind=${str("kind")}`, str("stepPath"));
    case "harness.session.completed":
      return join(str("sessionId"), str("role") && `role=${str("role")}`, fixSummary(p.output));
    case "harness.session.failed":
      return join(str("sessionId"), str("causeCode") && `${str("causeCode")}:`, str("message"));
    case "harness.model.called":
      return join(
        str("callId"),
        str("providerId") && str("modelId") ? `${str("providerId")}/${str("modelId")}` : str("modelSlotId"),
        str("turn") && `turn=${str("turn")}`,
      );
    case "harness.model.responded":
      return join(str("callId"), tokens(p.usage));
    case "harness.model.failed":
      return join(str("callId"), error(p.error));
    case "harness.tool_call.started":
      return join(str("tool"), str("callId"));
    case "harness.tool_call.succeeded":
      return join(str("tool"), str("callId"));
    case "harness.tool_call.failed":
      return join(str("tool"), str("callId"), error(p.error));
    default:
      return shortJson(event.payload);
  }
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
