/**
 * @module Spans of steps and waits: each step attempt (by step path: fan-out branches and loop
 * visits are paths of their own), a retry's backoff, an approval, a section occurrence and the
 * wait for a section's next trigger, each a span of its duration.
 */
import type { RunEvent } from "../../ports/run-events.ts";
import type { TraceSpan } from "../../ports/span-exporter.ts";
import { errorEnd, type OpenSpan } from "./open-spans.ts";
import { type SpanFold, type SpanHandlers, stepIdOf } from "./span-fold.ts";

function stepAttributes(b: SpanFold, stepPath: string, attempt: number) {
  const stepId = stepIdOf(stepPath);
  const kind = b.stepKinds.get(stepId) ?? b.options.stepKindOf?.(stepId);
  return {
    "little.step_path": stepPath,
    "little.step_id": stepId,
    "little.attempt": attempt,
    ...(kind ? { "little.step_kind": kind } : {}),
  };
}

/** Opens the wait for a section's next trigger, after an occurrence ended and none is running. */
function awaitTrigger(b: SpanFold, e: RunEvent): void {
  if (b.occurrences.size === 0 && !b.triggerWait)
    b.triggerWait = b.open(e, "wait trigger", { "little.wait_reason": "trigger" }, undefined, "internal", "trigger");
}

function endTriggerWait(b: SpanFold, e: RunEvent): TraceSpan[] {
  const wait = b.triggerWait;
  b.triggerWait = null;
  return wait && e.at > wait.startMs ? [b.close(wait, { atMs: e.at, seq: e.seq, status: { code: "ok" } })] : [];
}

export const STEP_HANDLERS: SpanHandlers = {
  StepScheduled: () => [],
  StepStarted: (b, e) => {
    const { stepPath, attempt } = e.payload;
    const span = b.open(e, `step ${stepPath}`, stepAttributes(b, stepPath, attempt), b.parentOfStep(stepPath));
    return b.reopen(b.steps, stepPath, span, e);
  },
  StepSucceeded: (b, e) => {
    const open = b.take(b.steps, e.payload.stepPath);
    return open ? [b.close(open, { atMs: e.at, seq: e.seq, status: { code: "ok" } })] : [];
  },
  StepFailed: (b, e) => {
    const open = b.take(b.steps, e.payload.stepPath);
    return open ? [b.close(open, errorEnd(e.at, e.seq, e.payload.error.message, e.payload.error.code))] : [];
  },
  StepRetried: (b, e) => {
    const { stepPath, attempt, retryAt, error } = e.payload;
    const open = b.take(b.steps, stepPath);
    const ended = open ? [b.close(open, errorEnd(e.at, e.seq, error.message, error.code))] : [];
    // The backoff's end is in the event (retryAt): the span is whole now, so it is exported with it.
    const attributes = { ...stepAttributes(b, stepPath, attempt), "little.wait_reason": "sleep" };
    const wait: OpenSpan = b.open(e, `wait retry ${stepPath}`, attributes, b.parentOfStep(stepPath), "internal", "retry");
    return [...ended, b.close(wait, { atMs: retryAt, seq: e.seq, status: { code: "ok" } })];
  },
  StepSkipped: (b, e) => {
    const { stepPath, reason } = e.payload;
    const span = b.open(e, `step ${stepPath}`, { ...stepAttributes(b, stepPath, 0), "little.skipped": reason }, b.parentOfStep(stepPath));
    return [b.close(span, { atMs: e.at, seq: e.seq })];
  },
  ApprovalRequested: (b, e) => {
    const { approvalId, stepPath, tool, expiresAt } = e.payload;
    const attributes = {
      "little.wait_reason": "approval",
      "little.approval_id": approvalId,
      "little.step_path": stepPath,
      "gen_ai.tool.name": tool,
      "little.expires_at": expiresAt,
    };
    return b.reopen(
      b.approvals,
      approvalId,
      b.open(e, `wait approval ${tool}`, attributes, b.steps.get(stepPath) ?? b.parentOfStep(stepPath)),
      e,
    );
  },
  ApprovalDecided: (b, e) => {
    const open = b.take(b.approvals, e.payload.approvalId);
    const attributes = { "little.approval_decision": e.payload.decision };
    return open ? [b.close(open, { atMs: e.at, seq: e.seq, status: { code: "ok" }, attributes })] : [];
  },
  OccurrenceStarted: (b, e) => {
    const waited = endTriggerWait(b, e);
    const span = b.open(e, `occurrence ${e.payload.occurrenceId}`, { "little.occurrence_id": e.payload.occurrenceId });
    return [...waited, ...b.reopen(b.occurrences, e.payload.occurrenceId, span, e)];
  },
  OccurrenceCompleted: (b, e) => {
    const open = b.take(b.occurrences, e.payload.occurrenceId);
    const ended = open ? [b.close(open, { atMs: e.at, seq: e.seq, status: { code: "ok" } })] : [];
    awaitTrigger(b, e);
    return ended;
  },
  OccurrenceFailed: (b, e) => {
    const open = b.take(b.occurrences, e.payload.occurrenceId);
    const ended = open ? [b.close(open, errorEnd(e.at, e.seq, e.payload.message, e.payload.causeCode))] : [];
    if (e.payload.rearmed) awaitTrigger(b, e);
    return ended;
  },
};
