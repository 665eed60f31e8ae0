/**
 * @module One drive slice of a run with flow control: its gates first, then the slice; its slots
 * given back once it has ended (docs/flow-control.md).
 */

import type { RunEnvironment } from "../run-environment.ts";
import { driveSlice, type SliceOutcome } from "../run-host/drive-slices.ts";
import type { RunAlarm } from "../run-host/host-ports.ts";
import { readRunState } from "../run-state.ts";
import { type FlowPorts, hasFlowGates, passFlowGates, releaseFlowGates } from "./admit-flow.ts";

/** How a flow-controlled slice went: driven (the slice's outcome), or still queued at a gate. */
export type FlowSliceOutcome = SliceOutcome | { readonly queued: true; readonly settled: false };

/**
 * Passes the run's gates (renewing the slots it holds) and drives one slice when it is through.
 * A run still queued is not driven: its limiter wakes it when a slot frees, and its own alarm asks
 * again after a lease's time in case that call was lost. A run without gates is just driven.
 */
export async function driveFlowSlice(env: RunEnvironment, flow: FlowPorts, alarm: RunAlarm): Promise<FlowSliceOutcome> {
  const { state } = await readRunState(env.log);
  // A paused run asks no gate (it keeps what it holds): its slice ends at once, with no alarm.
  if (hasFlowGates(state) && !state.terminal && !state.paused) {
    const outcome = await passFlowGates(flow, state);
    if (!outcome.admitted) {
      await alarm.wakeIn(flow.flowLeaseMs);
      return { queued: true, settled: false };
    }
  }
  const sliced = await driveSlice(env, alarm);
  if (!sliced.result.yielded && hasFlowGates(state)) await releaseEnded(flow);
  return sliced;
}

/** Gives the run's slots back if it has ended (every end path calls it; a release is idempotent). */
export async function releaseEnded(flow: Pick<FlowPorts, "runId" | "log" | "flow" | "held">): Promise<void> {
  const { state } = await readRunState(flow.log);
  if (!state.terminal || !hasFlowGates(state)) return;
  await releaseFlowGates(flow, state).catch((error: unknown) => {
    // The limiter's lease check frees the slot when this release is lost.
    console.error(`run ${flow.runId}: flow-control release failed: ${error instanceof Error ? error.message : String(error)}`);
  });
}
