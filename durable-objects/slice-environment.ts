import type { LiveCalls } from "../src/engine/live/live-calls.ts";
import { type RunEnvironment, runEnvironment } from "../src/engine/run-environment.ts";
import { type RunObjectLog, wire } from "../src/wiring.ts";

/** What one alarm slice of a run object drives with: its log, the abort and pause of the slice, its live output. */
export type SliceHandles = {
  readonly runId: string;
  readonly tenant: string;
  readonly log: RunObjectLog;
  readonly runs: RunEnvironment["runs"];
  readonly signal: AbortSignal;
  readonly pause: AbortSignal;
  readonly live: LiveCalls;
};

/** The run environment of one slice of a run object: the Worker's wiring with the object's own handles. */
export function sliceEnvironment(env: Env, handles: SliceHandles): RunEnvironment {
  const { runId, tenant, log, runs, signal, pause, live } = handles;
  return runEnvironment(wire(env, { runId: `${tenant}:${runId}` }), {
    runId,
    tenant,
    log,
    runs,
    signal,
    pause,
    bindings: env,
    liveOutput: live,
  });
}
