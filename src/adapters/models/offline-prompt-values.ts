/**
 * @module The values a prompt shows by name, for the offline worker to answer with instead of
 * inventing them: the offline planner's prompts list the input and each tool result as
 * `- name: value` lines (offline-plan.ts), and a value that is a JSON object also lends its fields.
 */

/** Candidate values by field name, the most recently shown first. */
export type ShownValues = ReadonlyMap<string, readonly unknown[]>;

const LINE = /^\s*(?:-\s+)?([A-Za-z_][\w.-]*)\s*:\s*(.+?)\s*$/;

/** Reads `name: value` lines; a value is kept as parsed JSON (when it parses) and as its text. */
export function shownValues(text: string): ShownValues {
  const values = new Map<string, unknown[]>();
  const add = (name: string, value: unknown) => values.set(name, [value, ...(values.get(name) ?? [])]);
  for (const line of text.split("\n")) {
    const match = LINE.exec(line);
    if (!match) continue;
    const [, name, raw] = match as unknown as [string, string, string];
    add(name, raw);
    const parsed = parseJson(raw);
    if (parsed === undefined) continue;
    add(name, parsed);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
      for (const [key, value] of Object.entries(parsed)) add(key, value);
    }
  }
  return values;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
