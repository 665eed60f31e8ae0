import type { z } from "zod";
import { EventLogCorruptError } from "../../sdk/errors/event-log-corrupt-error.ts";
import type { RunEvent } from "../run-events.ts";
import { RUN_EVENT_PAYLOAD_SCHEMAS } from "./run-event-schema.ts";

/** One row of an event log as stored: the payload is its canonical JSON text. */
export type StoredEventRow = { readonly seq: number; readonly type: string; readonly at: number; readonly payload: string };

const SCHEMAS: Readonly<Record<string, z.ZodType>> = RUN_EVENT_PAYLOAD_SCHEMAS;

/**
 * A stored row as the event it holds, checked against its type's payload schema; throws
 * {@link EventLogCorruptError} (with the row's seq) for text that is not JSON, a type the union
 * lacks, or a payload that is not that type's. Fields the schema does not know are kept as they
 * are (a newer writer's additions), and the parsed JSON itself is returned, not zod's copy of it,
 * so a read gives exactly what was written.
 */
export function decodeStoredEvent(runId: string, row: StoredEventRow): RunEvent {
  const schema = Object.hasOwn(SCHEMAS, row.type) ? SCHEMAS[row.type] : undefined;
  if (!schema) throw new EventLogCorruptError(runId, row.seq, `unknown event type "${row.type}"`);
  let payload: unknown;
  try {
    payload = JSON.parse(row.payload);
  } catch {
    throw new EventLogCorruptError(runId, row.seq, `the ${row.type} payload is not JSON`);
  }
  const checked = schema.safeParse(payload);
  if (!checked.success)
    throw new EventLogCorruptError(runId, row.seq, `the ${row.type} payload does not match its schema: ${firstIssue(checked.error)}`);
  // Checked against the schema of `row.type` just above: the lookup by a run-time key is what TypeScript cannot follow.
  return { seq: row.seq, runId, type: row.type, at: row.at, payload } as RunEvent;
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "invalid";
  const path = issue.path.length > 0 ? issue.path.map(String).join(".") : "(payload)";
  return `${path}: ${issue.message}${error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : ""}`;
}
