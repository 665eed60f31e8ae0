import type { LiveCalls } from "../src/engine/live/live-calls.ts";
import type { EventLog } from "../src/ports/event-log.ts";
import type { ModelDelta } from "../src/ports/live-output.ts";
import { isTerminalType, type RunEvent, TERMINAL_EVENT_TYPES } from "../src/ports/run-events.ts";

/** What a live stream listens to: the run object calls each subscriber with every batch it appends. */
export type EventSubscribers = Set<(events: readonly RunEvent[]) => void>;

/**
 * Queued messages past which a reader counts as slow: its deltas are skipped (events never are)
 * until it has caught up, and then it gets the live calls' text so far once more (offset 0), so a
 * slow reader costs the run a bounded buffer and no wait.
 */
const SLOW_READER_QUEUE = 1_000;

/**
 * A run's Server-Sent Events from `after` on: what is logged already, then each event as it is
 * appended (through `subscribers`), ending after the terminal event. Each SSE `id` is the event's
 * `seq` (for `Last-Event-ID`). A run object with no run yet streams only the preamble.
 *
 * With `live` (`GET /v1/runs/:id/stream`), after the logged events it also sends `event: delta`
 * messages: the text so far of every model call in flight, then each delta as the provider streams
 * it (docs/observability.md, "Live model output"). Deltas have no `id`, so `Last-Event-ID` stays
 * the last event's seq, and a resume gets the text so far again.
 */
export function eventStream(
  log: EventLog | null,
  after: number,
  subscribers: EventSubscribers,
  live?: LiveCalls,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let last = after;
  let push: ((events: readonly RunEvent[]) => void) | null = null;
  let unlisten: (() => void) | null = null;
  const stop = () => {
    if (push) subscribers.delete(push);
    unlisten?.();
  };
  return new ReadableStream<Uint8Array>({
    start: async (controller) => {
      let closed = false;
      const send = (events: readonly RunEvent[]) => {
        if (closed) return;
        for (const event of events) {
          if (event.seq <= last) continue;
          last = event.seq;
          controller.enqueue(encoder.encode(`id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`));
          if (isTerminalType(event.type)) {
            closed = true;
            stop();
            controller.close();
            return;
          }
        }
      };
      push = send;
      subscribers.add(send);
      controller.enqueue(encoder.encode(": little-workflow event stream\nretry: 1000\n\n"));
      if (!log) return;
      for (;;) {
        const page = await log.page({ after: last, limit: 1_000 });
        send(page);
        if (closed || page.length < 1_000) break;
      }
      // Resumed at or past the end (an EventSource reconnecting after the terminal event):
      // there is nothing more to wait for. Asked of SQLite (one row at most), not by reading and folding the whole log.
      if (!closed && (await log.page({ after: 0, limit: 1, types: TERMINAL_EVENT_TYPES })).length > 0) {
        closed = true;
        stop();
        controller.close();
        return;
      }
      if (live && !closed) unlisten = followDeltas(live, controller, encoder, () => closed);
    },
    cancel: () => stop(),
  });
}

/** The live calls' text so far, then every delta; a slow reader skips deltas until it catches up, then gets the text so far again. */
function followDeltas(
  live: LiveCalls,
  controller: ReadableStreamDefaultController<Uint8Array>,
  encoder: TextEncoder,
  closed: () => boolean,
): () => void {
  const write = (delta: ModelDelta) => controller.enqueue(encoder.encode(`event: delta\ndata: ${JSON.stringify(delta)}\n\n`));
  let lagging = false;
  // Snapshot and listen in one synchronous turn: no delta falls between them or comes twice.
  for (const delta of live.snapshot()) write(delta);
  return live.listen((delta) => {
    if (closed()) return;
    const queued = -(controller.desiredSize ?? 0);
    if (queued > SLOW_READER_QUEUE) {
      lagging = true;
      return;
    }
    if (!lagging) return write(delta);
    lagging = false;
    for (const whole of live.snapshot()) write(whole);
  });
}
