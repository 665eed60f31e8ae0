import type { PendingOccurrence, RunHandle } from "../ports/run-handle.ts";
import type { JsonSchema } from "../schema/normalize-schema.ts";
import { validateJson } from "../schema/validate-json.ts";
import type { Finding } from "../sdk/finding.ts";

const PAGE = 1_000;

/**
 * The occurrences a section queued and never started, in arrival order, read from its log
 * (without changing anything): what a supersede would move into the new section.
 */
export async function queuedOccurrences(client: RunHandle): Promise<PendingOccurrence[]> {
  const queued = new Map<string, PendingOccurrence>();
  for (let after = 0; ; ) {
    const page = await client.events({ after, limit: PAGE, types: ["OccurrenceQueued", "OccurrenceStarted"] });
    for (const e of page) {
      if (e.type === "OccurrenceQueued") queued.set(e.payload.occurrenceId, { ...e.payload });
      else if (e.type === "OccurrenceStarted") queued.delete(e.payload.occurrenceId);
    }
    const last = page.at(-1);
    if (page.length < PAGE || !last) break;
    after = last.seq;
  }
  return [...queued.values()];
}

/**
 * Checks each pending occurrence's input against the input schema of the section it would move
 * into. The findings name the occurrence: `$.occurrences.o2.text` and a message starting `o2:`.
 * Empty when every one fits.
 */
export function misfitOccurrences(schema: JsonSchema, pending: readonly PendingOccurrence[]): Finding[] {
  const findings: Finding[] = [];
  for (const p of pending) {
    const check = validateJson(schema, p.input, "input.invalid");
    if (check.valid) continue;
    for (const f of check.findings)
      findings.push({
        ...f,
        path: `$.occurrences.${p.occurrenceId}${f.path.replace(/^\$/, "")}`,
        message: `${p.occurrenceId}: ${f.message}`,
      });
  }
  return findings;
}
