/**
 * @module The memo a restart or fork reuses results from: for each step the source run completed,
 * its content key (computed over the source's own version, definition, input and outputs), its
 * recorded output and the seq that recorded it. Always derived from the source's log, never stored.
 */
import type { Digest } from "../../json/digest.ts";
import type { BlobStore } from "../../ports/blob-store.ts";
import { resolveRecorded } from "../blob-refs.ts";
import { stepContentKey } from "./content-key.ts";
import { recordedStep, type SourceRun } from "./source-run.ts";

export type MemoEntry = {
  readonly stepId: string;
  readonly key: Digest;
  readonly seq: number;
  /** The output as the step returned it (a blob reference resolved). */
  readonly output: unknown;
};

export type MemoTable = {
  readonly sourceRunId: string;
  readonly entries: ReadonlyMap<string, MemoEntry>;
};

/** The source's completed steps, keyed; empty when the definition the source ran under is gone. */
export async function memoTable(source: SourceRun, blobs: BlobStore): Promise<MemoTable> {
  const entries = new Map<string, MemoEntry>();
  const snapshot = source.snapshot;
  if (!snapshot) return { sourceRunId: source.runId, entries };
  const outputs: Record<string, unknown> = {};
  const recorded: { stepId: string; seq: number }[] = [];
  for (const step of source.lwir.steps) {
    const found = recordedStep(source, step.id);
    if (!found) continue;
    outputs[step.id] = await resolveRecorded(found.recorded, blobs);
    recorded.push({ stepId: step.id, seq: found.seq });
  }
  const scope = { input: source.input, steps: outputs };
  for (const { stepId, seq } of recorded) {
    const step = source.lwir.steps.find((s) => s.id === stepId);
    if (step) entries.set(stepId, { stepId, seq, output: outputs[stepId], key: stepContentKey(step, snapshot, scope) });
  }
  return { sourceRunId: source.runId, entries };
}
