/**
 * @module What a run's host object (durable-objects/run.ts) answers about its run between
 * commands: its view, with a queued run's place asked of its limiter, and whether a flow-control
 * lease still has a holder.
 */
import type { BlobOwner, BlobStore } from "../../ports/blob-store.ts";
import type { EventLog } from "../../ports/event-log.ts";
import type { FlowProbe } from "../../ports/flow-limiter.ts";
import type { RunEvent } from "../../ports/run-events.ts";
import type { EventPageRequest, RunView } from "../../ports/run-handle.ts";
import { type FlowPorts, flowPosition } from "../flow/admit-flow.ts";
import { readRunState } from "../run-state.ts";
import { viewRunState } from "./run-view.ts";

/** What a command sent to a host that holds no run answers. */
export const NO_RUN = { ok: false, code: "run_not_found", message: "No such run" } as const;

/**
 * The run as the API shows it now: the newest fold checkpoint and the events after it (a long run
 * is never read whole to be shown); a queued run's place from its key's limiter, which knows it
 * now (the fold has it as of its `FlowQueued`).
 */
export async function hostedView(
  runId: string,
  log: EventLog,
  blobsFor: (owner: BlobOwner) => BlobStore,
  flow: () => Pick<FlowPorts, "runId" | "flow">,
): Promise<RunView> {
  const folded = await readRunState(log);
  const view = await viewRunState(runId, folded, blobsFor, Date.now());
  if (!view.queue) return view;
  const position = await flowPosition(flow(), folded.state).catch(() => null);
  return { ...view, queue: { ...view.queue, position } };
}

/** A page of the run's log, as `events` answers it (100 events after seq 0 by default). */
export function eventPage(log: EventLog, options: EventPageRequest): Promise<RunEvent[]> {
  return log.page({ after: options.after ?? 0, limit: options.limit ?? 100, ...(options.types ? { types: options.types } : {}) });
}

/**
 * A flow-control lease ran out: has the run ended, is a slice of it being driven now (`driving`),
 * or is it idle (crashed, evicted, waiting)? A paused run keeps its slot (docs/flow-control.md):
 * the lease holds until it is resumed or ends.
 */
export async function probeHostedRun(log: EventLog, driving: boolean): Promise<FlowProbe> {
  const { state } = await readRunState(log);
  if (state.terminal) return "ended";
  return driving || state.paused ? "active" : "idle";
}
