/**
 * @module A run object's refusal (data on the wire, run-object-rpc.ts) as the named error the
 * `RunHandle` port throws: one place maps the codes, so no caller does. Every code keeps its
 * HTTP status through the API's one table (src/api/error-status.ts).
 */
import { APPROVAL_REFUSAL_CODES, type ApprovalRefusalCode, ApprovalRefusedError } from "../sdk/errors/approval-refused-error.ts";
import { CHILD_RUN_REFUSAL_CODES, type ChildRunRefusalCode, ChildRunRefusedError } from "../sdk/errors/child-run-refused-error.ts";
import type { LittleError } from "../sdk/errors/little-error.ts";
import { RunActiveError } from "../sdk/errors/run-active-error.ts";
import { RUN_END_REFUSAL_CODES, type RunEndRefusalCode, RunEndRefusedError } from "../sdk/errors/run-end-refused-error.ts";
import { RunEndedError } from "../sdk/errors/run-ended-error.ts";
import { RunNotFoundError } from "../sdk/errors/run-not-found-error.ts";
import { SectionStaleError } from "../sdk/errors/section-stale-error.ts";
import { SIGNAL_REFUSAL_CODES, type SignalRefusalCode, SignalRefusedError } from "../sdk/errors/signal-refused-error.ts";
import type { Finding } from "../sdk/finding.ts";
import type { Accepted, PurgeResult } from "./run-handle.ts";

/** A refusal as a run object answers it. */
export type RunRefusal = {
  readonly ok: false;
  readonly code: string;
  readonly message: string;
  readonly details?: { readonly declared?: readonly string[]; readonly findings?: readonly unknown[] };
};

/** The accepted part of a run object's answer, or its refusal thrown as a named error (`runId` names the run in a 404). */
export function accepted<R extends { readonly ok: true } | RunRefusal>(answer: R, runId: string): Accepted<R> {
  if (answer.ok) {
    const { ok: _ok, ...rest } = answer;
    return rest as Accepted<R>;
  }
  throw refusalError(answer as RunRefusal, runId);
}

/** A purge's answer: a run that has not ended is `RunActiveError` (the remedy names the delete). */
export function purged(answer: PurgeResult, runId: string): Accepted<PurgeResult> {
  if (answer.ok) return { deletedAt: answer.deletedAt };
  throw new RunActiveError(runId, answer.status, "cancel it, then delete it again");
}

/** The named error of a run object's refusal. */
export function refusalError(refusal: RunRefusal, runId: string): LittleError {
  const { code, message } = refusal;
  if (code === "run_not_found") return new RunNotFoundError(runId);
  if (code === "run_ended") return new RunEndedError(message);
  if (code === "section_stale") return new SectionStaleError(message);
  if (isOneOf(SIGNAL_REFUSAL_CODES, code)) return new SignalRefusedError(code, message, signalFindings(refusal, code));
  if (isOneOf(APPROVAL_REFUSAL_CODES, code)) return new ApprovalRefusedError(code, message);
  if (isOneOf(RUN_END_REFUSAL_CODES, code)) return new RunEndRefusedError(code, message);
  if (isOneOf(CHILD_RUN_REFUSAL_CODES, code)) return new ChildRunRefusedError(code, message);
  // Every code of the unions is mapped above; one this side does not know is a bug (500, logged).
  throw new Error(`run ${runId}: unknown refusal ${code}: ${message}`);
}

/** What explains a refused signal: the payload's findings, or the signals the workflow declares. */
function signalFindings(refusal: RunRefusal, code: SignalRefusalCode): readonly Finding[] | undefined {
  if (code === "signal_payload_invalid") return refusal.details?.findings as readonly Finding[] | undefined;
  if (code !== "signal_unknown") return undefined;
  const declared = refusal.details?.declared ?? [];
  return [{ severity: "error", code: "signal.unknown", path: "$.name", message: `declared signals: ${declared.join(", ") || "none"}` }];
}

function isOneOf<C extends SignalRefusalCode | ApprovalRefusalCode | RunEndRefusalCode | ChildRunRefusalCode>(
  codes: readonly C[],
  code: string,
): code is C {
  return (codes as readonly string[]).includes(code);
}
