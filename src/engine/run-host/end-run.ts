import { encodeTagged } from "../../identity/tagged-json.ts";
import type { EndRunRequest, EndRunResult, PendingOccurrence } from "../../ports/run-handle.ts";
import { type RunState, readRunState } from "../run-state.ts";
import { type RunHostPorts, textRedactorOf, WITHHELD } from "./host-ports.ts";
import { indexRun, latestRegistration } from "./index-run.ts";
import { settleEnded } from "./settle-ended.ts";

/**
 * Ends a run with a named cause from outside a slice: `RunFailed { causeCode }` (a revoked
 * approval, a superseded section), then the index and the alarm, as a cancel does; `onEnded` stops
 * the slice in flight. The guards in `only` are checked against the log in the same turn as the
 * append. Ending again with the same cause is a no-op that answers the same pending occurrences,
 * so a caller that crashed after the end can finish its work.
 *
 * @example
 * await endRun(ports, { causeCode: "definition_approval_revoked", message: "…", only: { approvedDefinitionHash } }, abort);
 */
export async function endRun(ports: RunHostPorts, request: EndRunRequest, onEnded: (message: string) => void): Promise<EndRunResult> {
  // Built before the state is read: its secret lookup awaits D1, which would let a call interleave.
  const redact = await textRedactorOf(ports);
  const state = (await readRunState(ports.log)).state;
  if (!state.request) return { ok: false, code: "run_not_found", message: "No such run" };
  if (state.terminal) {
    const same = state.terminal.type === "RunFailed" && state.terminal.payload.causeCode === request.causeCode;
    if (same) return { ok: true, ended: false, pending: pendingOf(state) };
    return { ok: false, code: "run_ended", message: `The run has ended (${state.status})` };
  }
  const refused = guard(state, request);
  if (refused) return refused;
  const message = redact ? redact(request.message) : WITHHELD;
  await ports.log.append([
    {
      type: "RunFailed",
      payload: {
        causeCode: request.causeCode,
        message,
        ...(request.details !== undefined ? { details: encodeTagged(request.details) } : {}),
      },
    },
  ]);
  onEnded(message);
  await indexRun(ports, state, "failed", { versionId: latestRegistration(state).versionId, causeCode: request.causeCode });
  await settleEnded(ports);
  return { ok: true, ended: true, pending: pendingOf(state) };
}

function guard(state: RunState, request: EndRunRequest): Extract<EndRunResult, { ok: false }> | null {
  const approved = request.only?.approvedDefinitionHash;
  if (approved !== undefined && state.request?.approvedDefinitionHash !== approved)
    return { ok: false, code: "run_not_under_approval", message: `The run was not started under the approval of ${approved}` };
  // Same hash, another approval of it (revoked and approved again): not the one being revoked.
  const at = request.only?.approvedAt;
  const recorded = state.request?.approvedAt;
  if (approved !== undefined && at !== undefined && recorded !== undefined && recorded !== at)
    return { ok: false, code: "run_not_under_approval", message: `The run was started under another approval of ${approved}` };
  if (request.only?.waitingSection) {
    if (!state.section) return { ok: false, code: "run_not_a_section", message: "The run is not a section" };
    const running = state.occurrences.find((o) => o.status === "running");
    if (running)
      return {
        ok: false,
        code: "section_not_waiting",
        message: `Occurrence ${running.occurrenceId} is running; cancel the run or retry when it waits`,
      };
  }
  return null;
}

/** Occurrences queued and never started, in arrival order. */
function pendingOf(state: RunState): PendingOccurrence[] {
  return state.occurrences
    .filter((o) => o.status === "queued")
    .map((o) => ({ occurrenceId: o.occurrenceId, input: o.input, trigger: o.trigger }));
}
