import type { Finding } from "../finding.ts";
import { LittleError } from "./little-error.ts";

/**
 * The codes a start can be refused with by the engine's start service (src/engine/runs), besides
 * the errors that have a class of their own (input, approval, secrets, quota, configuration). Each
 * is a code of the API's one status table; `test/api/error-status.test.ts` checks it.
 */
export const START_REFUSAL_CODES = [
  "run_not_found",
  "workflow_not_found",
  "anchor_workflow_mismatch",
  "lwir_too_large",
  "run_ended",
  "idempotency_conflict",
  "run_id_conflict",
  "run_id_reserved",
  "webhook_id_conflict",
  "definition_projection_mismatch",
  "model_unavailable",
  "run_start_unconfirmed",
] as const;

export type StartRefusalCode = (typeof START_REFUSAL_CODES)[number];

/** What a repeated start must match (workflow, input, LWIR), else it is refused with this code. */
export type StartConflictCode = Extract<StartRefusalCode, "idempotency_conflict" | "run_id_conflict" | "webhook_id_conflict">;

/**
 * A start the start service refused, with the stable code the API answers (409 for a conflict, 404
 * for an unknown workflow or run, 413 for an LWIR over the quota, 503 `run_start_unconfirmed` when
 * the run object's answer was lost). Nothing was created, except for `run_start_unconfirmed`, where
 * the run may exist and the same start again answers it (`retryAfterSeconds`).
 *
 * @example
 * try { await startRun(ports, command) } catch (e) { if (e instanceof StartRefusedError && e.code === "run_id_conflict") … }
 */
export class StartRefusedError<C extends StartRefusalCode = StartRefusalCode> extends LittleError {
  readonly code: C;
  readonly findings: readonly Finding[] | undefined;
  /** When to send the same start again (`Retry-After`), for a refusal that passes with time. */
  readonly retryAfterSeconds: number | undefined;
  constructor(code: C, message: string, options: { findings?: readonly Finding[]; retryAfterSeconds?: number } = {}) {
    super(message);
    this.name = "StartRefusedError";
    this.code = code;
    this.findings = options.findings;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
