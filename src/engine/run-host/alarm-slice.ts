/**
 * @module One alarm of a run's host object: the index row's repair first, then one flow-controlled
 * drive slice; a slice that throws is counted, and the run host decides (`onDriveError`) whether
 * to try again later or end the run.
 */
import type { FlowPorts } from "../flow/admit-flow.ts";
import { driveFlowSlice, releaseEnded } from "../flow/flow-slice.ts";
import type { RunEnvironment } from "../run-environment.ts";
import { onDriveError } from "./drive-slices.ts";
import type { RunAlarm, RunHostPorts } from "./host-ports.ts";
import { type IndexDueStore, indexStarted } from "./index-due.ts";

/** How many slices in a row have failed: kept by the host (its `meta` table), so a crash does not forget it. */
export interface DriveFailures {
  count(): number;
  record(failures: number): void;
  /** A slice went through: back to none. */
  reset(): void;
}

export type AlarmSlicePorts = {
  readonly host: RunHostPorts;
  /** The slice's environment (built once the repair is done). */
  readonly environment: () => RunEnvironment;
  readonly flow: FlowPorts;
  readonly alarm: RunAlarm;
  readonly indexDue: IndexDueStore;
  /**
   * The host's own write of the row (after a start's or a cancel's answer) is in flight: it clears
   * the mark when it lands, and a later write of the run's does if it fails (the index only moves a
   * status forward), so the slice drives at once instead of waiting on a single-region round trip.
   */
  readonly indexInFlight?: boolean;
  readonly failures: DriveFailures;
  /** The run settled: wake the host's waiters. */
  readonly settled: () => void;
};

/** Drives one slice of the run (the alarm's work); never throws for a slice that failed. */
export async function driveAlarmSlice(ports: AlarmSlicePorts): Promise<void> {
  try {
    // The repair path: a crash between an answer and its index row left the mark.
    if (ports.indexDue.read() && !ports.indexInFlight) await indexStarted(ports.host);
    const { settled } = await driveFlowSlice(ports.environment(), ports.flow, ports.alarm);
    ports.failures.reset();
    if (settled) ports.settled();
  } catch (error) {
    const failures = ports.failures.count() + 1;
    ports.failures.record(failures);
    if ((await onDriveError(ports.host, failures, error)).settled) {
      ports.settled();
      await releaseEnded(ports.flow);
    }
  }
}
