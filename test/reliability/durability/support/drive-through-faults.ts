import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import type { RunView } from "../../../../src/ports/run-handle.ts";
import { rawRunStub, runStub } from "../../../support/drive.ts";

const ENDED = new Set(["completed", "failed", "cancelled"]);

/** A run left not ended with nothing to wake it: the failure item 2 must never see. */
export class StrandedRunError extends Error {
  constructor(runId: string, status: string) {
    super(`run ${runId} is ${status} with no alarm set`);
    this.name = "StrandedRunError";
  }
}

function isReset(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { durableObjectReset?: boolean }).durableObjectReset === true;
}

/**
 * Like `driveToEnd` (test/support/drive.ts), but an alarm handler that throws is not the end:
 * workerd retries a throwing alarm, and the run object arms its safety alarm before it drives, so
 * the next alarm is run as long as one is set. Returns the final view and how many alarms threw.
 * Throws {@link StrandedRunError} when the run is not ended and no alarm is set.
 */
export async function driveThroughFaults(runId: string, maxAlarms = 40): Promise<{ view: RunView; alarmErrors: number }> {
  let alarmErrors = 0;
  for (let i = 0; i < maxAlarms; i++) {
    let ran = true;
    try {
      ran = await runDurableObjectAlarm(rawRunStub(runId));
    } catch (error) {
      if (!isReset(error)) alarmErrors += 1;
    }
    const view = await runStub(runId).status();
    if (ENDED.has(view.status)) return { view, alarmErrors };
    const armed = await runInDurableObject(rawRunStub(runId), (_instance, state) => state.storage.getAlarm());
    if (!ran && armed === null) throw new StrandedRunError(runId, view.status);
    // An alarm armed for later (a sleep's deadline) is run when it is due, as workerd would: running
    // it early only re-arms it, and a fast machine would spend every try before the deadline.
    if (armed !== null && armed > Date.now()) await new Promise((due) => setTimeout(due, Math.min(armed - Date.now(), 2_000)));
  }
  throw new Error(`run ${runId} did not end within ${maxAlarms} alarms`);
}
