/**
 * @module Signals a workflow declares (`defineWorkflow({ signals })`): the named messages a run of
 * it may wait for with `wait.signal`, each with a payload schema (zod or JSON Schema, normalized
 * like the input) and a description the planner and a person sending it read.
 */
import type { Fail } from "./check-runtime-config.ts";
import { childPath } from "./json-path.ts";
import { SIGNAL_NAME_PATTERN } from "./names.ts";

/** One declared signal: its payload's schema and what it means. */
export type SignalDeclaration = {
  /** The payload's schema: zod 4, an AI SDK schema, or JSON Schema. */
  readonly schema: unknown;
  readonly description: string;
};

/**
 * Checks `signals`: an object of names (`^[a-z][a-z0-9_.-]{0,63}$`) to `{ schema, description }`.
 *
 * @example
 * defineWorkflow({ …, signals: { "manager.decision": { schema: z.object({ approved: z.boolean() }), description: "The manager's call" } } })
 */
export function checkSignals(signals: unknown, fail: Fail): void {
  if (signals === undefined) return;
  if (typeof signals !== "object" || signals === null || Array.isArray(signals)) {
    fail("$.signals", "definition.invalid_signals", 'signals maps names to { schema, description }, e.g. { "manager.decision": { … } }');
    return;
  }
  for (const [name, declaration] of Object.entries(signals as Record<string, unknown>)) {
    const path = childPath("$.signals", name);
    if (!SIGNAL_NAME_PATTERN.test(name))
      fail(path, "definition.invalid_signal_name", `signal name "${name}" must match ^[a-z][a-z0-9_.-]{0,63}$ (e.g. "manager.decision")`);
    const d = declaration as Partial<SignalDeclaration> | null;
    if (typeof d !== "object" || d === null) {
      fail(path, "definition.invalid_signals", `signal "${name}" is { schema, description }`);
      continue;
    }
    if (d.schema === undefined || d.schema === null)
      fail(`${path}.schema`, "definition.missing_signal_schema", `signal "${name}" needs a payload schema (zod or JSON Schema)`);
    if (typeof d.description !== "string" || d.description.trim() === "")
      fail(`${path}.description`, "definition.missing_signal_description", `signal "${name}" needs a description: the planner reads it`);
  }
}

/** The declared signals, sorted by name (the order the snapshot lists them in). */
export function sortedSignals(signals: Readonly<Record<string, SignalDeclaration>> | undefined): [string, SignalDeclaration][] {
  return Object.entries(signals ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
