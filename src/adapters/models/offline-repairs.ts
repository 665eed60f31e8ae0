import type { FixTask } from "../../ports/planner-protocol.ts";

/** What a repair reads: the failed entrypoint, its error and the input it ran with. */
export type RepairableFailure = Pick<FixTask, "entrypoint" | "source" | "error" | "input">;

export type OfflineRepairId = "todo-guard" | "run-export" | "json-safe-output" | "input-field-name";

/** A repaired entrypoint, and one line saying what changed and why. */
export type OfflineRepair = { readonly id: OfflineRepairId; readonly summary: string; readonly source: string };

type RepairRule = {
  readonly id: OfflineRepairId;
  /** The sandbox error codes (`RunCodeErrorCode`) this rule reads. */
  readonly codes: readonly string[];
  readonly describe: string;
  readonly apply: (failure: RepairableFailure) => { readonly source: string; readonly summary: string } | null;
};

/**
 * The offline fixer's repertoire: deterministic repairs, each keyed on the failure's error code
 * and derived from the failure itself (the message, the source, the input), never from one known
 * file. The offline model has no understanding of the code, so it only repairs mistakes whose fix
 * is mechanical; anything else it declines, and the step fails with the normal `fixer_failed`.
 */
export const OFFLINE_REPAIRS: readonly RepairRule[] = [
  {
    id: "input-field-name",
    codes: ["code_threw"],
    describe: "a TypeError from reading a field the input does not have: rename `input.<x>` to the input's field closest to it",
    apply: repairInputFieldName,
  },
  {
    id: "todo-guard",
    codes: ["code_threw"],
    describe: 'a thrown "TODO" / "FIXME" / "not implemented" marker in front of code that returns: remove the marker line',
    apply: repairTodoGuard,
  },
  {
    id: "run-export",
    // A CommonJS file fails while loading, on its first `exports` (a ReferenceError), not with code_no_run_export.
    codes: ["code_no_run_export", "code_load_failed", "code_threw"],
    describe:
      "no `run` export: export an unexported `run`, or the default / only exported function as `run`; turn CommonJS `exports.run` / `module.exports` into an ES export",
    apply: repairRunExport,
  },
  {
    id: "json-safe-output",
    codes: ["code_output_not_json"],
    describe: "an output JSON cannot hold (BigInt, Map, Set, Date, cycles): wrap `run` so it returns plain JSON",
    apply: repairJsonSafeOutput,
  },
];

/** The first repair of the repertoire that applies to this failure, or null when none does. */
export function offlineRepair(failure: RepairableFailure): OfflineRepair | null {
  for (const rule of OFFLINE_REPAIRS) {
    if (!rule.codes.includes(failure.error.code)) continue;
    const repaired = rule.apply(failure);
    if (repaired && repaired.source !== failure.source) return { id: rule.id, ...repaired };
  }
  return null;
}

// --- input-field-name -------------------------------------------------------------------------

const UNDEFINED_READ = /TypeError: .*(undefined|null|is not iterable|is not a function)/;
const INPUT_FIELD = /\binput(\?\.|\.)([A-Za-z_$][\w$]*)/g;

function repairInputFieldName(failure: RepairableFailure): { source: string; summary: string } | null {
  if (!UNDEFINED_READ.test(failure.error.message)) return null;
  const input = failure.input;
  if (typeof input !== "object" || input === null || Array.isArray(input)) return null;
  const fields = Object.keys(input);
  const renames = new Map<string, string>();
  for (const match of failure.source.matchAll(INPUT_FIELD)) {
    const name = match[2] as string;
    if (fields.includes(name) || renames.has(name)) continue;
    const closest = closestField(name, fields);
    if (closest) renames.set(name, closest);
  }
  if (renames.size === 0) return null;
  const source = failure.source.replace(INPUT_FIELD, (whole, access: string, name: string) => {
    const to = renames.get(name);
    return to === undefined ? whole : `input${access}${to}`;
  });
  const changes = [...renames].map(([from, to]) => `input.${from} -> input.${to}`).join(", ");
  return { source, summary: `renamed ${changes}: the input has no field ${[...renames.keys()].join(", ")}` };
}

/** The one field within a small edit distance (case differences count as one edit at most). */
function closestField(name: string, fields: readonly string[]): string | null {
  const limit = Math.min(2, Math.floor(name.length / 3));
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  let tie = false;
  for (const field of fields) {
    const d = field.toLowerCase() === name.toLowerCase() ? 0.5 : editDistance(name, field);
    if (d < bestDistance) [best, bestDistance, tie] = [field, d, false];
    else if (d === bestDistance) tie = true;
  }
  return best !== null && !tie && bestDistance <= Math.max(limit, 0.5) ? best : null;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
    }
    previous = current;
  }
  return previous[b.length] as number;
}

// --- todo-guard -------------------------------------------------------------------------------

const MARKER = /\b(TODO|FIXME|not implemented|unimplemented)\b/i;
/** A whole line that throws a marker error, optionally behind a one-line `if (...)`. */
const MARKER_LINE = /^[ \t]*(?:if\s*\(.*\)\s*)?throw\s+new\s+\w*Error\s*\(\s*(["'`])(.*?)\1\s*\)\s*;?[ \t]*(?:\r?\n|$)/gm;

function repairTodoGuard(failure: RepairableFailure): { source: string; summary: string } | null {
  if (!MARKER.test(failure.error.message)) return null;
  const removed: string[] = [];
  const source = failure.source.replace(MARKER_LINE, (line, _quote: string, text: string) => {
    // Only the marker that actually fired: its text is in the error message.
    if (!MARKER.test(text) || !failure.error.message.includes(text)) return line;
    removed.push(text);
    return "";
  });
  // A stub whose whole body is the marker has nothing behind it to run: not mechanical.
  if (removed.length === 0 || !/\breturn\b/.test(source)) return null;
  return { source, summary: `removed the line that throws ${JSON.stringify(removed[0])}; the code after it returns the output` };
}

// --- run-export -------------------------------------------------------------------------------

const UNEXPORTED_RUN = /^([ \t]*)((?:async\s+)?function\s*\*?\s*run\s*\(|(?:const|let|var)\s+run\s*=)/m;
const NAMED_DEFAULT = /^[ \t]*export\s+default\s+(?:async\s+)?function\s+([A-Za-z_$][\w$]*)\s*\(/m;
const ANONYMOUS_DEFAULT = /^([ \t]*)export\s+default\s+(async\s+)?function\s*\(/m;
const COMMONJS_RUN = /^([ \t]*)(?:module\.)?exports\.run\s*=/m;
const COMMONJS_OBJECT = /^([ \t]*)module\.exports\s*=\s*\{\s*run\s*\}\s*;?/m;
const COMMONJS_VALUE = /^([ \t]*)module\.exports\s*=/m;
const COMMONJS_FAILURE = /ReferenceError: (?:module|exports) is not defined/;
const EXPORTED_FUNCTION = /^[ \t]*export\s+(?:async\s+)?function\s+([A-Za-z_$][\w$]*)\s*\(/gm;

function repairRunExport(failure: RepairableFailure): { source: string; summary: string } | null {
  const source = failure.source;
  if (failure.error.code !== "code_no_run_export") return COMMONJS_FAILURE.test(failure.error.message) ? repairCommonJs(source) : null;
  if (UNEXPORTED_RUN.test(source))
    return { source: source.replace(UNEXPORTED_RUN, "$1export $2"), summary: "exported the run function the file declares" };
  const named = NAMED_DEFAULT.exec(source);
  if (named)
    return {
      source: `${source.trimEnd()}\nexport { ${named[1]} as run };\n`,
      summary: `exported the default function ${named[1]} as run`,
    };
  if (ANONYMOUS_DEFAULT.test(source))
    return {
      source: `${source.replace(ANONYMOUS_DEFAULT, "$1export $2function run(").trimEnd()}\nexport default run;\n`,
      summary: "named the anonymous default function run and exported it",
    };
  const exported = [...source.matchAll(EXPORTED_FUNCTION)].map((m) => m[1] as string);
  if (exported.length === 1)
    return {
      source: `${source.trimEnd()}\nexport { ${exported[0]} as run };\n`,
      summary: `exported the file's only function, ${exported[0]}, as run`,
    };
  return null;
}

/** The sandbox loads ES modules: a CommonJS export becomes an ES export of `run`. */
function repairCommonJs(source: string): { source: string; summary: string } | null {
  const summary = "turned the CommonJS export into an ES module export of run";
  if (COMMONJS_RUN.test(source)) return { source: source.replace(COMMONJS_RUN, "$1export const run ="), summary };
  if (COMMONJS_OBJECT.test(source)) return { source: source.replace(COMMONJS_OBJECT, "$1export { run };"), summary };
  if (COMMONJS_VALUE.test(source)) return { source: source.replace(COMMONJS_VALUE, "$1export const run ="), summary };
  return null;
}

// --- json-safe-output -------------------------------------------------------------------------

const EXPORTED_RUN_FUNCTION = /^([ \t]*)export\s+(async\s+)?function\s+run\s*\(/m;
const EXPORTED_RUN_CONST = /^([ \t]*)export\s+(const|let|var)\s+run\s*=/m;
const UNSAFE_RUN = "__littleUnsafeRun";

/** Appended by the json-safe-output repair: converts what JSON cannot hold, deterministically. */
const TO_PLAIN_JSON = `
// Added by the offline fixer: run's output must be plain JSON.
function __littlePlainJson(value, seen = new Set()) {
  if (typeof value === "bigint") return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (value === null || typeof value !== "object") return typeof value === "function" || typeof value === "symbol" ? undefined : value;
  if (seen.has(value)) return null;
  seen.add(value);
  let out;
  if (value instanceof Date) out = Number.isNaN(value.getTime()) ? null : value.toISOString();
  else if (value instanceof Map) out = Object.fromEntries([...value].map(([k, v]) => [String(k), __littlePlainJson(v, seen) ?? null]));
  else if (value instanceof Set || Array.isArray(value) || ArrayBuffer.isView(value)) out = Array.from(value, (v) => __littlePlainJson(v, seen) ?? null);
  else {
    out = {};
    for (const [k, v] of Object.entries(value)) {
      const plain = __littlePlainJson(v, seen);
      if (plain !== undefined) out[k] = plain;
    }
  }
  seen.delete(value);
  return out;
}

export async function run(args) {
  return __littlePlainJson(await ${UNSAFE_RUN}(args)) ?? null;
}
`;

function repairJsonSafeOutput(failure: RepairableFailure): { source: string; summary: string } | null {
  const source = failure.source;
  let renamed: string;
  if (EXPORTED_RUN_FUNCTION.test(source)) renamed = source.replace(EXPORTED_RUN_FUNCTION, `$1$2function ${UNSAFE_RUN}(`);
  else if (EXPORTED_RUN_CONST.test(source)) renamed = source.replace(EXPORTED_RUN_CONST, `$1$2 ${UNSAFE_RUN} =`);
  else return null;
  return {
    source: `${renamed.trimEnd()}\n${TO_PLAIN_JSON}`,
    summary: "wrapped run so its output is plain JSON (BigInt to number or string, Map to object, Set to array, Date to ISO text)",
  };
}
