import type { Finding } from "../finding.ts";
import { LittleError } from "./little-error.ts";

/**
 * A workflow's `schedule` that could never run as written: a cron expression Cloudflare would
 * refuse, a cron given twice, a tenant that is no tenant name, or an input the input schema
 * refuses. Thrown by `defineWorkflow`, so the Worker fails at startup, not at its first tick.
 *
 * @example
 * try { defineWorkflow({ ...definition, schedule: "0 25 * * *" }) }
 * catch (e) { if (e instanceof ScheduleInvalidError) console.log(e.code, e.findings) } // "schedule_invalid"
 */
export class ScheduleInvalidError extends LittleError {
  readonly code = "schedule_invalid";
  readonly findings: readonly Finding[];
  constructor(workflowId: string, findings: readonly Finding[]) {
    super(`The schedule of workflow "${workflowId}" is invalid: ${findings.map((f) => `${f.path}: ${f.message}`).join("; ")}`);
    this.name = "ScheduleInvalidError";
    this.findings = findings;
  }
}
