import type { PauseRequest, PauseResult } from "../../ports/run-handle.ts";
import { readRunState, runStatusOf } from "../run-state.ts";
import type { RunHostPorts } from "./host-ports.ts";
import { indexFieldsOf, indexRun } from "./index-run.ts";

/** What a pause or resume answers before the host adds the run's view. */
export type PauseOutcome = Exclude<PauseResult, { ok: true }> | { ok: true; changed: boolean };

/**
 * Pauses the run: `RunPaused` with who asked. From then on nothing new starts in it (no step, model
 * or tool call, section occurrence); what is in flight finishes and is recorded, and the slice then
 * yields with no alarm (drive-run.ts). Pausing a paused run changes nothing (`changed` false); an
 * ended run is refused with `run_ended`. The host aborts its slice's pause signal after this answers.
 * The alarm is cleared: a sleep or signal timeout that passes while paused is taken up by the resume.
 */
export async function pauseRun(ports: RunHostPorts, request: PauseRequest): Promise<PauseOutcome> {
  const { state } = await readRunState(ports.log);
  if (!state.request) return { ok: false, code: "run_not_found", message: "No such run" };
  if (state.terminal) return { ok: false, code: "run_ended", message: `The run has ended (${state.status}); it cannot be paused` };
  if (state.paused) return { ok: true, changed: false };
  await ports.log.append([{ type: "RunPaused", payload: { by: request.by } }]);
  // Nothing is due while paused (a sleep's deadline stays in the log): no alarm until the resume.
  // A slice in flight finishes what it started and then clears it again (drive-slices.ts).
  await ports.alarm.clear();
  await indexRun(ports, state, "paused", indexFieldsOf(state));
  return { ok: true, changed: true };
}

/**
 * Resumes a paused run: `RunResumed`, then the run is driven again at once. The alarm is armed
 * before the event is appended, so a crash between the two leaves no resumed run without an alarm
 * (one that fires on a run still paused just ends). Resuming a run that is not paused changes
 * nothing; an ended run is refused with `run_ended`.
 */
export async function resumeRun(ports: RunHostPorts, request: PauseRequest): Promise<PauseOutcome> {
  const { state } = await readRunState(ports.log);
  if (!state.request) return { ok: false, code: "run_not_found", message: "No such run" };
  if (state.terminal) return { ok: false, code: "run_ended", message: `The run has ended (${state.status}); it cannot be resumed` };
  if (!state.paused) return { ok: true, changed: false };
  await ports.alarm.wakeIn(0);
  await ports.log.append([{ type: "RunResumed", payload: { by: request.by } }]);
  const { state: resumed } = await readRunState(ports.log);
  await indexRun(ports, state, runStatusOf(resumed), { ...indexFieldsOf(resumed), waitReason: resumed.waitReason });
  return { ok: true, changed: true };
}
