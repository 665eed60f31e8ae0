import { cronKey, cronProblem } from "./cron.ts";
import { ScheduleInvalidError } from "./errors/schedule-invalid-error.ts";
import type { Finding } from "./finding.ts";
import { childPath } from "./json-path.ts";
import { TENANT_PATTERN } from "./names.ts";

/**
 * One cron schedule of a workflow: every tick of `cron` (Cloudflare's dialect, UTC; the same
 * string goes in `wrangler.toml` `[triggers] crons`) starts a run with `input`, owned by `tenant`.
 */
export type ScheduleEntry = {
  readonly cron: string;
  /** The tenant the runs belong to (default: `LITTLE_TRIGGER_TENANT`, else `default`). */
  readonly tenant?: string;
  /** The run input, as JSON; checked against the input schema by `defineWorkflow`. Default `{}`. */
  readonly input?: unknown;
};

/** What `schedule` takes: a cron expression, one entry, or several (each its own cron). */
export type ScheduleInput = string | ScheduleEntry | readonly ScheduleEntry[];

/** A checked schedule entry: the expression as written (trimmed), its tenant if named, its input. */
export type Schedule = { readonly cron: string; readonly tenant?: string; readonly input: unknown };

/**
 * The definition's schedules, checked: throws {@link ScheduleInvalidError} (`schedule_invalid`)
 * naming every problem (a cron Cloudflare would refuse, a cron given twice, a tenant that is no
 * tenant name, an input that is not JSON or that the input schema refuses). Called by
 * `defineWorkflow`, so a bad schedule stops the Worker at startup instead of at its first tick.
 */
export function parseSchedule(
  workflowId: string,
  inputSchema: unknown,
  schedule: ScheduleInput | undefined,
): readonly Schedule[] | undefined {
  const findings = scheduleFindings(inputSchema, schedule);
  if (findings.length > 0) throw new ScheduleInvalidError(workflowId, findings);
  if (schedule === undefined) return undefined;
  return entriesOf(schedule).map((entry) => ({
    cron: entry.cron.trim(),
    ...(entry.tenant !== undefined ? { tenant: entry.tenant } : {}),
    input: entry.input === undefined ? {} : entry.input,
  }));
}

/** Every problem of a schedule, as findings (`schedule.*` codes); none when it is absent. */
function scheduleFindings(inputSchema: unknown, schedule: ScheduleInput | undefined): Finding[] {
  if (schedule === undefined) return [];
  const findings: Finding[] = [];
  const fail = (path: string, code: string, message: string) => findings.push({ severity: "error", code, path, message });
  const entries = entriesOf(schedule);
  if (entries.length === 0) fail("$.schedule", "schedule.empty", "schedule lists at least one cron expression (or leave it out)");
  const seen = new Set<string>();
  entries.forEach((entry, i) => {
    const path = Array.isArray(schedule) ? childPath("$.schedule", i) : "$.schedule";
    if (typeof entry !== "object" || entry === null) {
      fail(path, "schedule.invalid_entry", "a schedule is a cron string or { cron, tenant?, input? }");
      return;
    }
    const cronPath = typeof schedule === "string" ? path : `${path}.cron`;
    const problem = cronProblem(entry.cron);
    if (problem) fail(cronPath, "schedule.invalid_cron", `"${String(entry.cron)}" is not a Cloudflare cron expression: ${problem}`);
    else if (seen.has(cronKey(entry.cron))) fail(cronPath, "schedule.duplicate_cron", `"${entry.cron}" is scheduled twice`);
    else seen.add(cronKey(entry.cron));
    if (entry.tenant !== undefined && (typeof entry.tenant !== "string" || !TENANT_PATTERN.test(entry.tenant)))
      fail(`${path}.tenant`, "schedule.invalid_tenant", "tenant is 1–63 of a-z, 0-9, '_' or '-', starting with a letter or digit");
    for (const problem of inputProblems(inputSchema, entry.input)) fail(`${path}.input`, "schedule.invalid_input", problem);
  });
  return findings;
}

function entriesOf(schedule: ScheduleInput): readonly ScheduleEntry[] {
  if (typeof schedule === "string") return [{ cron: schedule }];
  return Array.isArray(schedule) ? (schedule as readonly ScheduleEntry[]) : [schedule as ScheduleEntry];
}

/**
 * Why the static input won't do: not JSON, or refused by the input schema. Schemas that implement
 * Standard Schema (zod, valibot, arktype) are checked here, synchronously; a JSON Schema or an
 * asynchronous schema is checked by the run's start at each tick (`input_schema_error`), as
 * docs/triggers.md says.
 */
function inputProblems(inputSchema: unknown, input: unknown): string[] {
  const value = input === undefined ? {} : input;
  if (!isJson(value)) return ["input is JSON data: objects, arrays, strings, finite numbers, booleans and null"];
  const standard = (inputSchema as { "~standard"?: { validate?: (v: unknown) => unknown } } | null)?.["~standard"];
  if (typeof standard?.validate !== "function") return [];
  const result = standard.validate(value) as { issues?: readonly { message: string; path?: readonly unknown[] }[] } | PromiseLike<unknown>;
  if (typeof (result as PromiseLike<unknown>).then === "function") return [];
  const issues = (result as { issues?: readonly { message: string; path?: readonly unknown[] }[] }).issues ?? [];
  return issues.map((issue) => {
    const at = (issue.path ?? []).map((p) => String(typeof p === "object" && p !== null && "key" in p ? p.key : p)).join(".");
    const what = input === undefined ? "the input is left out, so it is {}, which the input schema refuses" : "the input schema refuses it";
    return `${what}: ${at ? `${at}: ` : ""}${issue.message}`;
  });
}

function isJson(value: unknown): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJson);
  if (typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && Object.values(value).every(isJson);
}
