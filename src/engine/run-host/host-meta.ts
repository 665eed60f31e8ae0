/**
 * @module What a run's host object keeps of the run host's bookkeeping in its own small key-value
 * table (the run object's `meta`), and its alarm: the stores the run host and the alarm's slice
 * read and write, over any such table.
 */
import type { DriveFailures } from "./alarm-slice.ts";
import type { RunAlarm } from "./host-ports.ts";
import type { IndexDue, IndexDueStore } from "./index-due.ts";

/** A host's key-value table (the run object's `meta`: the object is its only writer). */
export interface HostMeta {
  get(key: string): string | null;
  set(key: string, value: string): void;
  delete(key: string): void;
}

/** The index repair mark (`indexDue`): set with a start's request or a cancel, cleared once a row lands. */
export function indexDueIn(meta: HostMeta): IndexDueStore {
  return {
    mark: () => meta.set("indexDue", "{}"),
    read: () => {
      const due = meta.get("indexDue");
      return due === null ? null : (JSON.parse(due) as IndexDue);
    },
    clear: () => meta.delete("indexDue"),
  };
}

/** Slices failed in a row (`alarmFailures`). */
export function driveFailuresIn(meta: HostMeta): DriveFailures {
  return {
    count: () => Number(meta.get("alarmFailures") ?? "0"),
    record: (failures) => meta.set("alarmFailures", String(failures)),
    reset: () => {
      if (meta.get("alarmFailures") !== "0") meta.set("alarmFailures", "0");
    },
  };
}

/** A host's one alarm (a Durable Object's storage alarm) as the run host's {@link RunAlarm}. */
export function storageAlarm(storage: { setAlarm(at: number): Promise<void>; deleteAlarm(): Promise<void> }): RunAlarm {
  return {
    wakeIn: (delayMs) => storage.setAlarm(Date.now() + delayMs),
    wakeAt: (at) => storage.setAlarm(at),
    clear: () => storage.deleteAlarm(),
  };
}
