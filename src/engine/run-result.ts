import { decodeTagged } from "../identity/tagged-json.ts";
import type { BlobStore } from "../ports/blob-store.ts";
import type { RunEvent } from "../ports/run-events.ts";
import type { RunResult } from "../ports/world.ts";
import { isBlobRef, resolveRecorded } from "./blob-refs.ts";
import { deriveRunState } from "./run-state.ts";

/** A run's result as its events tell it. */
export function runResultOf(runId: string, events: readonly RunEvent[]): RunResult {
  const state = deriveRunState(events);
  const terminal = state.terminal;
  const versionId = [...state.registered.values()].at(-1)?.versionId;
  const base = { runId, status: state.status, ...(versionId ? { versionId } : {}) };
  if (terminal?.type === "RunCompleted") return { ...base, output: decodeTagged(terminal.payload.output), usage: terminal.payload.usage };
  if (terminal?.type === "RunFailed") {
    const { causeCode, message, details } = terminal.payload;
    return { ...base, cause: { code: causeCode, message, ...(details !== undefined ? { details } : {}) } };
  }
  return base;
}

/** The result with its output read from the blob store when the log holds a reference. */
export async function resolveRunOutput(result: RunResult, blobs: BlobStore): Promise<RunResult> {
  return isBlobRef(result.output) ? { ...result, output: await resolveRecorded(result.output, blobs) } : result;
}
