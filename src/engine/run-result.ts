import { decodeTagged } from "../identity/tagged-json.ts";
import type { BlobStore } from "../ports/blob-store.ts";
import type { RunEvent } from "../ports/run-events.ts";
import type { RunResult } from "../ports/world.ts";
import { resolveRecorded } from "./blob-refs.ts";
import { latestRegistration } from "./run-host/index-run.ts";
import { deriveRunState, type RunState, runStatusOf } from "./run-state.ts";

/** A run's result as its folded state tells it (the terminal event is in the state). */
export function runResultOfState(runId: string, state: RunState): RunResult {
  const terminal = state.terminal;
  const { versionId } = latestRegistration(state);
  const base = {
    runId,
    status: runStatusOf(state),
    ...(state.waitReason ? { waitReason: state.waitReason } : {}),
    ...(versionId ? { versionId } : {}),
  };
  if (terminal?.type === "RunCompleted") return { ...base, output: decodeTagged(terminal.payload.output), usage: terminal.payload.usage };
  if (terminal?.type === "RunFailed") {
    const { causeCode, message, details } = terminal.payload;
    return { ...base, cause: { code: causeCode, message, ...(details !== undefined ? { details } : {}) } };
  }
  return base;
}

/**
 * A run's result with its output read back from the log's recorded value: from the blob store when
 * that is a reference. Decided on the recorded value, never on the decoded one: a run output that
 * merely looks like `{ "$blob", "bytes" }` is recorded escaped and decodes to that shape.
 */
export async function readRunResult(runId: string, events: readonly RunEvent[], blobs: BlobStore): Promise<RunResult> {
  return readRunResultOfState(runId, deriveRunState(events), blobs);
}

/** {@link readRunResult} from the run's folded state. */
export async function readRunResultOfState(runId: string, state: RunState, blobs: BlobStore): Promise<RunResult> {
  const result = runResultOfState(runId, state);
  const terminal = state.terminal;
  if (terminal?.type !== "RunCompleted") return result;
  return { ...result, output: await resolveRecorded(terminal.payload.output, blobs) };
}
