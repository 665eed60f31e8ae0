import type { RunEvent } from "../../../../src/ports/run-events.ts";

/** An event without its timestamp, with run ids replaced, for comparing two runs of the same thing. */
export type MaskedEvent = { seq: number; type: string; payload: unknown };

/** Events with `at` dropped and every `run_…` id (in payloads and idempotency keys) masked. */
export function maskEvents(events: readonly RunEvent[]): MaskedEvent[] {
  return events.map((e) => ({
    seq: e.seq,
    type: e.type,
    payload: JSON.parse(JSON.stringify(e.payload).replace(/run_[A-Za-z0-9_]+/g, "<run>")),
  }));
}

/** Seq must run 1, 2, 3, … with no gap and no repeat. */
export function isDense(events: readonly RunEvent[]): boolean {
  return events.every((e, i) => e.seq === i + 1);
}

/**
 * Events that must appear at most once in any log: a model call's `called`/`responded`, a session's
 * `started`/`completed`, a step attempt's `StepStarted`/`StepSucceeded`. Returns the duplicates.
 */
export function duplicatedEvents(events: readonly RunEvent[]): string[] {
  const seen = new Set<string>();
  const duplicates: string[] = [];
  for (const e of events) {
    const key = onceKey(e);
    if (key === null) continue;
    if (seen.has(key)) duplicates.push(`${key} (seq ${e.seq})`);
    seen.add(key);
  }
  return duplicates;
}

function onceKey(e: RunEvent): string | null {
  const p = e.payload as Record<string, unknown>;
  switch (e.type) {
    case "harness.model.called":
    case "harness.model.responded":
    case "harness.tool_call.started":
    case "harness.tool_call.succeeded":
      return `${e.type}:${String(p.callId)}`;
    case "harness.session.started":
    case "harness.session.completed":
      return `${e.type}:${String(p.sessionId)}`;
    case "StepScheduled":
    case "StepSkipped":
      return `${e.type}:${String(p.stepPath)}`;
    case "StepStarted":
    case "StepSucceeded":
    case "StepRetried":
    case "StepFailed":
      return `${e.type}:${String(p.stepPath)}:${String(p.attempt)}`;
    case "WorkflowVersionRegistered":
    case "RunRequested":
      return e.type;
    case "RunStarted":
      return `${e.type}:${String(p.cycle)}`;
    default:
      return null;
  }
}
