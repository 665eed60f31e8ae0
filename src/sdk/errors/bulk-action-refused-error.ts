import type { Finding } from "../finding.ts";
import { LittleError } from "./little-error.ts";

/** Why a bulk action (`POST /v1/runs/bulk`) was refused; each a 422, and no job was created. */
export const BULK_REFUSAL_CODES = [
  "bulk_action_unknown",
  "bulk_action_unsupported",
  "bulk_filter_invalid",
  "bulk_filter_unsupported",
] as const;

export type BulkRefusalCode = (typeof BULK_REFUSAL_CODES)[number];

/**
 * 422: an action that does not exist (`bulk_action_unknown`) or that this Worker does not run yet
 * (`bulk_action_unsupported`), a filter with a bad value (`bulk_filter_invalid`: a date that is not
 * ISO-8601 or epoch ms, `createdAfter` after `createdBefore`) or one it cannot apply yet
 * (`bulk_filter_unsupported`: refused rather than ignored, since ignoring it would act on more runs).
 */
export class BulkActionRefusedError extends LittleError {
  readonly code: BulkRefusalCode;
  readonly findings: readonly Finding[];
  constructor(code: BulkRefusalCode, message: string, path = "$") {
    super(message);
    this.name = "BulkActionRefusedError";
    this.code = code;
    this.findings = [{ severity: "error", code, path, message }];
  }
}
