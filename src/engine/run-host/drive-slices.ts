import { type DriveResult, driveRun } from "../drive-run.ts";
import type { RunEnvironment } from "../run-environment.ts";
import { describeError } from "../run-redactor.ts";
import { readRunState } from "../run-state.ts";
import { nextSignalFor } from "../steps/wait-signal.ts";
import { noAlarm, type RunAlarm, type RunHostPorts, textRedactorOf, WITHHELD } from "./host-ports.ts";
import { indexRun, latestRegistration } from "./index-run.ts";
import { settleEnded } from "./settle-ended.ts";

/**
 * Whether a message landed that a waiting step has not taken yet: a child's end its workflow.run
 * step has not recorded (the step's attempt still open), or a signal an open wait.signal takes.
 * One that arrived while this slice was finishing (its command found the slice holding the run)
 * armed the alarm for now: the run must be driven again, not left waiting until a deadline.
 */
async function messagePending(env: RunEnvironment): Promise<boolean> {
  const { state } = await readRunState(env.log);
  if (state.terminal) return false;
  const childEnded = state.children.some((c) => {
    const step = state.steps.get(c.stepPath);
    return c.ended !== undefined && !state.stepOutputs.has(c.stepPath) && !step?.failed && step?.attempt === c.attempt;
  });
  if (childEnded) return true;
  for (const wait of state.stepWaits.values())
    if (wait.reason === "signal" && nextSignalFor(state, new Set(wait.signals.map((s) => s.name)))) return true;
  return false;
}

/** How long after a crash mid-slice the safety alarm resumes the run. */
export const RESUME_AFTER_MS = 5_000;
/** Unexpected drive errors in a row before the run is failed as `internal_error`. */
export const MAX_DRIVE_FAILURES = 5;

/** How a slice left the run: `settled` when it has ended or a section waits for a trigger (wake the waiters). */
export type SliceOutcome = { readonly result: DriveResult; readonly settled: boolean };

/**
 * One alarm's worth of driving. The alarm is armed first, so a slice that crashes resumes from
 * the log; then it is set to when the run needs driving again: the slice's `wakeAt` when it
 * yielded, at once when a trigger arrived while a section's slice ran, else cleared.
 */
export async function driveSlice(env: RunEnvironment, alarm: RunAlarm): Promise<SliceOutcome> {
  await alarm.wakeIn(RESUME_AFTER_MS);
  const result = await driveRun(env);
  // Paused: nothing drives the run until its resume arms the alarm (a paused run costs no alarms).
  if (result.paused) {
    await alarm.clear();
    return { result, settled: false };
  }
  if (result.yielded) {
    // A child's end recorded while this slice was finishing set an alarm for now: keep it (not a later one, not none).
    const pending = (result.untilMessage === true || result.wakeAt !== undefined) && (await messagePending(env));
    if (pending) await alarm.wakeIn(0);
    else if (result.wakeAt !== undefined) await alarm.wakeAt(result.wakeAt);
    // A child's end is a message to this object (childEnded arms the alarm then): nothing to wake
    // for now, unless one landed while this slice was finishing (its alarm must not be cleared).
    else if (result.untilMessage) await alarm.clear();
    else await alarm.wakeIn(0);
    // Mid-work (out of time, or waiting for an approval or a retry): a caller waiting on it keeps waiting.
    return { result, settled: false };
  }
  // A trigger that arrived while this slice ran set an alarm this slice must not delete.
  const queued = result.waiting && (await readRunState(env.log)).state.occurrences.some((o) => o.status === "queued");
  if (queued) await alarm.wakeIn(0);
  else if (result.waiting) await alarm.clear();
  else await settleEnded({ ...env, alarm });
  return { result, settled: true };
}

/**
 * Drives a run in a loop of slices until one does not yield (it ended, or a section waits),
 * sleeping until a yielded slice's `wakeAt`: the host for plain Node and unit tests.
 */
export async function driveToEnd(env: RunEnvironment): Promise<void> {
  for (;;) {
    const { result } = await driveSlice(env, noAlarm);
    // Waiting for a message no loop of its own can deliver (a child's end, a resume): the run stays as it is.
    if (!result.yielded || result.untilMessage) return;
    if (result.wakeAt !== undefined) await env.sleep(Math.max(0, result.wakeAt - env.clock.now()));
  }
}

/**
 * A slice threw what is no run failure (a bug, an outage): retried with backoff, and after
 * {@link MAX_DRIVE_FAILURES} in a row the run fails as `internal_error`. Everything written about
 * the error, to the console and to the log, passes the run's redactor: a slice that threw took its
 * own redactor with it, and an error may quote a secret's value. `settled` when the run ended.
 */
export async function onDriveError(ports: RunHostPorts, failures: number, error: unknown): Promise<{ settled: boolean }> {
  const redact = await textRedactorOf(ports);
  console.error(`run ${ports.runId}: drive slice failed (${failures}/${MAX_DRIVE_FAILURES}): ${describeError(error, redact)}`);
  if (failures < MAX_DRIVE_FAILURES) {
    await ports.alarm.wakeIn(1_000 * 2 ** failures);
    return { settled: false };
  }
  const state = (await readRunState(ports.log)).state;
  if (!state.terminal) {
    const reason = error instanceof Error ? error.message : String(error);
    const message = `The run failed ${failures} times in a row: ${redact ? redact(reason) : WITHHELD}`;
    await ports.log.append([{ type: "RunFailed", payload: { causeCode: "internal_error", message } }]);
    await indexRun(ports, state, "failed", { versionId: latestRegistration(state).versionId, causeCode: "internal_error" });
  }
  await settleEnded(ports);
  return { settled: true };
}
