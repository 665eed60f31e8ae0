/**
 * The run host: what hosting one run means, over the `EventLog`, `RunIndex` and `Clock` ports and
 * a {@link RunAlarm}. Start, trigger, decide an approval, send a signal, cancel, view, and drive slice by slice
 * until the run yields. The Durable Object (`durable-objects/run.ts`) adds only storage, its alarm,
 * SSE and RPC; the in-memory world (`src/worlds/memory-world.ts`) drives the same functions in a loop.
 */

export { recordChildEnd } from "./children/child-messages.ts";
export { driveSlice, driveToEnd, onDriveError } from "./run-host/drive-slices.ts";
export { endRun } from "./run-host/end-run.ts";
export { noAlarm, type RunAlarm, type RunHostPorts } from "./run-host/host-ports.ts";
export {
  INDEX_REPAIR_MS,
  type IndexDue,
  type IndexDueStore,
  indexAfterAnswer,
  indexStarted,
  rowAfterEnd,
  settlingIndex,
} from "./run-host/index-due.ts";
export { type PauseOutcome, pauseRun, resumeRun } from "./run-host/pause-commands.ts";
export { cancelRun, decideApproval, startRun, triggerRun } from "./run-host/run-commands.ts";
export { emptyRunView, viewRun, viewRunState } from "./run-host/run-view.ts";
export { sendSignal } from "./run-host/signal-commands.ts";
