/**
 * The client's event stream ends at the run's terminal event, for every type the event union
 * calls terminal (ports' TERMINAL_EVENT_TYPES): the client keeps no list of its own, so a new
 * terminal type ends client streams too.
 */
import { describe, expect, it } from "vitest";
import { createClient } from "../../src/client/index.ts";
import { TERMINAL_EVENT_TYPES } from "../../src/ports/run-events.ts";

/** One SSE stream: a step event, the terminal event, then an event that must never be read. */
function streamEnding(type: string): Response {
  const frames = [
    { seq: 1, runId: "run_t", type: "RunRequested", at: 1, payload: {} },
    { seq: 2, runId: "run_t", type, at: 2, payload: {} },
    { seq: 3, runId: "run_t", type: "StepStarted", at: 3, payload: {} },
  ].map((event) => `id: ${event.seq}\ndata: ${JSON.stringify(event)}\n\n`);
  return new Response(frames.join(""), { headers: { "content-type": "text/event-stream" } });
}

describe("events() ends at the terminal event", () => {
  it.each([...TERMINAL_EVENT_TYPES])("%s", async (type) => {
    const calls: string[] = [];
    const client = createClient({
      baseUrl: "http://little.test",
      token: "t",
      fetch: async (input) => {
        calls.push(String(input instanceof Request ? input.url : input));
        return streamEnding(type);
      },
    });
    const seen: string[] = [];
    for await (const event of client.events("run_t")) seen.push(event.type);
    expect(seen).toEqual(["RunRequested", type]);
    // No reconnection and no status read: the terminal event ended it.
    expect(calls).toEqual(["http://little.test/v1/runs/run_t/events/stream"]);
  });
});
