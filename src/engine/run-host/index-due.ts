import type { RunIndex } from "../../ports/run-index.ts";
import { readRunState, runStatusOf } from "../run-state.ts";
import type { RunAlarm, RunHostPorts } from "./host-ports.ts";
import { indexFieldsOf, indexRun } from "./index-run.ts";

/**
 * A started run whose index row is not written yet: set in the same durable write as its
 * `RunRequested` (so a crash cannot lose it), cleared once a row write lands. It carries nothing
 * else now (runs from before the tenant quota gates may carry a `startWindow`, which is ignored).
 */
export type IndexDue = Readonly<Record<string, unknown>>;

/** How soon the alarm repairs a row written after an answer (a cancel's), should that write be lost. */
export const INDEX_REPAIR_MS = 1_000;

/** Where a host keeps its run's {@link IndexDue} (the run object: its `meta` table). */
export interface IndexDueStore {
  /** Sets the mark: called in the turn of the append it covers (a start's request, a cancel), so one sync holds both. */
  mark(): void;
  read(): IndexDue | null;
  clear(): void;
}

/**
 * The run index as a started run's host writes it: the first write to land while the row is due
 * clears the due mark. Every index write of the run (the start's, the drive's, a cancel's) goes
 * through this, so whichever lands first ends the repair.
 */
export function settlingIndex(runs: RunIndex, due: IndexDueStore): RunIndex {
  return {
    ...boundIndex(runs),
    async upsert(entry) {
      const pending = due.read();
      await runs.upsert(entry);
      if (pending) due.clear();
    },
  };
}

/**
 * Writes a started run's index row as the run stands now — `pending`, stamped with its request
 * time, right after the start's answer; whatever its fold says by the time the repair path (the
 * next alarm) runs it after a crash or a failed write: a run that ended meanwhile is indexed ended,
 * never left `pending` (which would also hold a concurrent-run slot). The index never moves a later
 * status back. A no-op for a log with no request.
 */
export async function indexStarted(ports: Pick<RunHostPorts, "runId" | "log" | "runs" | "clock">): Promise<void> {
  const { state } = await readRunState(ports.log);
  const terminal = state.terminal;
  await indexRun(ports, state, runStatusOf(state), {
    ...indexFieldsOf(state),
    waitReason: state.waitReason,
    causeCode: terminal?.type === "RunFailed" ? terminal.payload.causeCode : null,
    updatedAt: state.status === "pending" ? state.requestedAt : ports.clock.now(),
  });
}

/** The index's methods bound to it, so spreading them keeps `this` (a wrapper spreads them and overrides one). */
export function boundIndex(runs: RunIndex): RunIndex {
  return {
    upsert: runs.upsert.bind(runs),
    get: runs.get.bind(runs),
    list: runs.list.bind(runs),
    tenantUsesVersion: runs.tenantUsesVersion.bind(runs),
    findAnchor: runs.findAnchor.bind(runs),
    claimAnchor: runs.claimAnchor.bind(runs),
    cancelAnchor: runs.cancelAnchor.bind(runs),
  };
}

/**
 * Writes the run's row after its host answered (a start's, a cancel's): the mark (`IndexDue`) stays
 * set until a write lands, and the alarm writes the row when this one is lost. Never rejects:
 * resolves whether the row landed.
 */
export function indexAfterAnswer(ports: Pick<RunHostPorts, "runId" | "log" | "runs" | "clock">): Promise<boolean> {
  return indexStarted(ports).then(
    () => true,
    (error: unknown) => {
      console.error(`run ${ports.runId}: index write after the answer failed: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    },
  );
}

/**
 * An ended run's row after its host answered (a cancel's). When nothing else keeps the run's alarm
 * (`alarmInUse`: a parent still to tell), it is armed as the repair of a lost write, and cleared
 * once the row lands: an ended run costs no alarm. Resolves once the repair is armed, the write in flight.
 */
export async function rowAfterEnd(
  ports: Pick<RunHostPorts, "runId" | "log" | "runs" | "clock">,
  alarm: RunAlarm,
  alarmInUse: boolean,
): Promise<{ readonly write: Promise<unknown> }> {
  if (!alarmInUse) await alarm.wakeIn(INDEX_REPAIR_MS);
  return { write: indexAfterAnswer(ports).then((landed) => (landed && !alarmInUse ? alarm.clear() : undefined)) };
}
