import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { runClient, runObjectStub } from "../../src/adapters/cloudflare/run-client.ts";
import type { RunView } from "../../src/ports/run-handle.ts";
import { isEndedStatus } from "../../src/ports/run-status.ts";

/** A fresh client for a run (a stub used across an abort stays broken). */
export function runStub(runId: string, tenant = "default") {
  return runClient(env.RUNS, tenant, runId);
}

/** The raw stub, for `runInDurableObject` and `runDurableObjectAlarm`. */
export function rawRunStub(runId: string, tenant = "default") {
  return runObjectStub(env.RUNS, tenant, runId);
}

function isReset(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    ((error as { durableObjectReset?: boolean }).durableObjectReset === true || /reset|abort/i.test(String((error as Error).message)))
  );
}

/**
 * Runs the run object's alarms, one at a time and never by sleeping, until the run ends. An
 * aborted object (crash injection) is taken up again with a fresh stub; its safety alarm resumes
 * the run.
 */
export async function driveToEnd(runId: string, maxAlarms = 40, tenant = "default"): Promise<RunView> {
  for (let i = 0; i < maxAlarms; i++) {
    let ran: boolean;
    try {
      ran = await runDurableObjectAlarm(rawRunStub(runId, tenant));
    } catch (error) {
      if (!isReset(error)) throw error;
      continue;
    }
    const view = await runStub(runId, tenant).status();
    if (isEndedStatus(view.status)) return view;
    if (!ran) throw new Error(`run ${runId} is ${view.status} with no alarm set`);
  }
  throw new Error(`run ${runId} did not end within ${maxAlarms} alarms`);
}
