import type { Finding } from "../finding.ts";
import { LittleError } from "./little-error.ts";

/** The codes a run refuses a signal with (nothing stored); each is a code of the API's one status table. */
export const SIGNAL_REFUSAL_CODES = [
  /** The workflow declares no signal of this name (422); the findings list the declared ones. */
  "signal_unknown",
  /** The payload does not fit the signal's schema (422, findings). */
  "signal_payload_invalid",
  /** A signal with this id was sent before with another name or payload (409). */
  "signal_id_conflict",
] as const;

export type SignalRefusalCode = (typeof SIGNAL_REFUSAL_CODES)[number];

/**
 * A signal the run refused (docs/runs.md, "Signals"): nothing was stored.
 *
 * @example
 * try { await handle.sendSignal({ name, payload }) } catch (e) { if (LittleError.is(e, "signal_unknown")) … }
 */
export class SignalRefusedError extends LittleError {
  readonly code: SignalRefusalCode;
  readonly findings: readonly Finding[] | undefined;
  constructor(code: SignalRefusalCode, message: string, findings?: readonly Finding[]) {
    super(message);
    this.name = "SignalRefusedError";
    this.code = code;
    this.findings = findings;
  }
}
