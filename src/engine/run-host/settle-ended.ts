import { notifyParent, type ParentNotice } from "../children/child-messages.ts";
import type { RunAlarm } from "./host-ports.ts";

/** How long after a failed notification of its parent an ended child run's alarm tries again. */
export const NOTIFY_PARENT_RETRY_MS = 1_000;

/**
 * The last thing a host does for a run that ended: tell its parent (a child run), then clear the
 * alarm. A parent that could not be reached leaves the alarm armed instead, and the next alarm
 * (whose slice finds the run ended) tells it again: the parent's step never waits on a lost message.
 */
export async function settleEnded(ports: ParentNotice & { readonly alarm: RunAlarm }): Promise<void> {
  if (await notifyParent(ports)) await ports.alarm.clear();
  else await ports.alarm.wakeIn(NOTIFY_PARENT_RETRY_MS);
}
