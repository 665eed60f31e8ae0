/**
 * A run object answers its refusals as data over RPC (RPC keeps no error class); the `RunHandle`
 * port throws each as its named error (src/ports/run-refusal.ts), which keeps its status through
 * the API's one table. Here: every code of the wire unions, and the real port over a real object.
 */
import { describe, expect, it } from "vitest";
import { ERROR_STATUS, isErrorCode } from "../../src/api/error-status.ts";
import { namedError } from "../../src/api/errors.ts";
import { refusalError } from "../../src/ports/run-refusal.ts";
import { LittleError } from "../../src/sdk/errors/little-error.ts";
import { RunNotFoundError } from "../../src/sdk/errors/run-not-found-error.ts";
import { runStub } from "../support/drive.ts";

/** Every refusal code of the run object's answers (src/ports/run-handle.ts), with the class the port throws. */
const WIRE_CODES: Record<string, string> = {
  run_not_found: "RunNotFoundError",
  run_ended: "RunEndedError",
  section_stale: "SectionStaleError",
  signal_unknown: "SignalRefusedError",
  signal_payload_invalid: "SignalRefusedError",
  signal_id_conflict: "SignalRefusedError",
  approval_not_found: "ApprovalRefusedError",
  approval_args_mismatch: "ApprovalRefusedError",
  approval_already_decided: "ApprovalRefusedError",
  approval_expired: "ApprovalRefusedError",
  run_not_under_approval: "RunEndRefusedError",
  run_not_a_section: "RunEndRefusedError",
  section_not_waiting: "RunEndRefusedError",
  child_not_found: "ChildRunRefusedError",
};

describe("a run object's refusal at the RunHandle port", () => {
  it("is a named error of its code, found by the brand, with the status the one table gives the code", () => {
    for (const [code, name] of Object.entries(WIRE_CODES)) {
      const error = refusalError({ ok: false, code, message: `refused: ${code}` }, "r1");
      expect(error.name, code).toBe(name);
      expect(LittleError.is(error, code), code).toBe(true);
      expect(LittleError.is(error, "some_other_code"), code).toBe(false);
      expect(isErrorCode(code), code).toBe(true);
      const answered = namedError(error);
      expect({ code: answered?.code, status: answered?.status }, code).toEqual({
        code,
        status: ERROR_STATUS[code as keyof typeof ERROR_STATUS],
      });
      expect(answered?.message).toBe(code === "run_not_found" ? 'No run "r1"' : `refused: ${code}`);
    }
  });

  it("keeps what explains a refused signal: the payload's findings, or the declared signals", () => {
    const findings = [{ severity: "error", code: "input.invalid", path: "$.payload.approved", message: "expected boolean" }];
    const invalid = refusalError({ ok: false, code: "signal_payload_invalid", message: "bad", details: { findings } }, "r1");
    expect(namedError(invalid)).toMatchObject({ status: 422, findings });
    const unknown = refusalError({ ok: false, code: "signal_unknown", message: "no", details: { declared: ["go", "stop"] } }, "r1");
    expect(namedError(unknown)?.findings).toEqual([
      { severity: "error", code: "signal.unknown", path: "$.name", message: "declared signals: go, stop" },
    ]);
  });

  it("is thrown by the Durable Object client for a run its object does not hold (real RPC)", async () => {
    const handle = runStub(`run_refusal_${crypto.randomUUID().slice(0, 8)}`);
    const calls: [string, () => Promise<unknown>][] = [
      ["trigger", () => handle.trigger({ input: {}, trigger: { kind: "http" } })],
      ["pause", () => handle.pause({ by: "test" })],
      ["resume", () => handle.resume({ by: "test" })],
      ["sendSignal", () => handle.sendSignal({ name: "go", payload: {} })],
      ["decideApproval", () => handle.decideApproval({ approvalId: "apr_1", decision: "approved", argsHash: "sha256:0" })],
      ["end", () => handle.end({ causeCode: "section_superseded", message: "gone" })],
      ["childEnded", () => handle.childEnded({ childRunId: "c1", status: "completed", output: null })],
    ];
    for (const [name, call] of calls) {
      const refused = await call().catch((e: unknown) => e);
      expect(refused, name).toBeInstanceOf(RunNotFoundError);
      expect(LittleError.is(refused, "run_not_found"), name).toBe(true);
    }
    // Nothing was created by the refusals: the object still holds no run.
    expect(await handle.events()).toEqual([]);
  });
});
