import type { Finding } from "../finding.ts";
import { LittleError } from "./little-error.ts";

/**
 * The codes a restart or a fork (docs/runs.md, "Restart and forks") is refused with, before
 * anything is stored. Each is a code of the API's one status table.
 */
export const RUN_FORK_REFUSAL_CODES = [
  /** The source run has not ended (409): restart or fork it once it has. */
  "run_active",
  /** The source never ran a version (it failed before its plan, or is a section run): nothing to reuse (409). */
  "run_not_forkable",
  /** `fromStep` names no step of the source's version (422); the message and findings name the step ids. */
  "restart_step_unknown",
  /** No `fromStep` given and no step of the source failed (422). */
  "restart_no_failed_step",
  /** A fork's edits name an unknown step or model slot, or a model that is not `provider:model` (422, findings). */
  "fork_edit_invalid",
] as const;

export type RunForkRefusalCode = (typeof RUN_FORK_REFUSAL_CODES)[number];

/**
 * A restart or fork refused before anything was stored or started.
 *
 * @example
 * try { await restartRun(ports, tenant, runId, {}) } catch (e) { if (e instanceof RunForkRefusedError && e.code === "run_active") … }
 */
export class RunForkRefusedError extends LittleError {
  readonly code: RunForkRefusalCode;
  readonly findings: readonly Finding[] | undefined;
  constructor(code: RunForkRefusalCode, message: string, findings?: readonly Finding[]) {
    super(message);
    this.name = "RunForkRefusedError";
    this.code = code;
    this.findings = findings;
  }
}
