import type { EventLog } from "../src/ports/event-log.ts";
import { isTerminalType, type RunEvent, TERMINAL_EVENT_TYPES } from "../src/ports/run-events.ts";

/** What a live stream listens to: the run object calls each subscriber with every batch it appends. */
export type EventSubscribers = Set<(events: readonly RunEvent[]) => void>;

/**
 * A run's Server-Sent Events from `after` on: what is logged already, then each event as it is
 * appended (through `subscribers`), ending after the terminal event. Each SSE `id` is the event's
 * `seq` (for `Last-Event-ID`). A run object with no run yet streams only the preamble.
 */
export function eventStream(log: EventLog | null, after: number, subscribers: EventSubscribers): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let last = after;
  let push: ((events: readonly RunEvent[]) => void) | null = null;
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
            if (push) subscribers.delete(push);
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
        subscribers.delete(send);
        controller.close();
      }
    },
    cancel: () => {
      if (push) subscribers.delete(push);
    },
  });
}
