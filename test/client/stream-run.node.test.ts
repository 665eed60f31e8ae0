/**
 * `client.streamRun` (`GET /v1/runs/:id/stream`): events and deltas in the order the server sent
 * them; a dropped connection reopens with `Last-Event-ID` (the last event's seq: deltas carry no
 * id), repeats no event, and passes on the text so far the server sends again at offset 0.
 */
import { describe, expect, it } from "vitest";
import { createClient, type RunStreamItem } from "../../src/client/index.ts";

const event = (seq: number, type: string) =>
  `id: ${seq}\nevent: ${type}\ndata: ${JSON.stringify({ seq, runId: "run_s", type, at: seq, payload: {} })}\n\n`;
const delta = (offset: number, text: string) =>
  `event: delta\ndata: ${JSON.stringify({ sessionId: "s", callId: "s/model/1", call: 1, role: "worker", stepPath: "c1/a", channel: "text", offset, text })}\n\n`;

describe("streamRun", () => {
  it("yields events and deltas, and resumes after the last event's seq with the text so far sent again", async () => {
    const requests: { url: string; lastEventId: string | null }[] = [];
    const bodies = [
      // The first connection drops mid-call (its body errors after these frames).
      [event(1, "RunRequested"), event(2, "harness.model.called"), delta(0, "Hel"), delta(3, "lo")],
      [
        event(2, "harness.model.called"),
        delta(0, "Hello, wor"),
        delta(10, "ld"),
        event(3, "harness.model.responded"),
        event(4, "RunCompleted"),
      ],
    ];
    const client = createClient({
      baseUrl: "http://little.test",
      token: "t",
      fetch: async (input, init) => {
        const request = new Request(input, init);
        requests.push({ url: request.url, lastEventId: request.headers.get("last-event-id") });
        const frames = bodies[requests.length - 1] ?? [];
        const last = requests.length === 1;
        let next = 0;
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            const frame = frames[next++];
            if (frame !== undefined) controller.enqueue(new TextEncoder().encode(frame));
            else if (last) controller.error(new Error("connection reset"));
            else controller.close();
          },
        });
        return new Response(body, { headers: { "content-type": "text/event-stream" } });
      },
    });
    const items: RunStreamItem[] = [];
    for await (const item of client.streamRun("run_s", { maxReconnects: 2 })) items.push(item);
    expect(items.map((i) => (i.type === "event" ? `e${i.event.seq}` : `d${i.delta.offset}:${i.delta.text}`))).toEqual([
      "e1",
      "e2",
      "d0:Hel",
      "d3:lo",
      "d0:Hello, wor",
      "d10:ld",
      "e3",
      "e4",
    ]);
    expect(requests.map((r) => r.url)).toEqual(["http://little.test/v1/runs/run_s/stream", "http://little.test/v1/runs/run_s/stream"]);
    expect(requests[1]?.lastEventId).toBe("2");
    // A client keeps `whole.slice(0, offset) + text`: the resend replaces, never repeats.
    let whole = "";
    for (const item of items) if (item.type === "delta") whole = whole.slice(0, item.delta.offset) + item.delta.text;
    expect(whole).toBe("Hello, world");
  });

  it("refuses a delta without callId, offset and text as a bad response", async () => {
    const client = createClient({
      baseUrl: "http://little.test",
      token: "t",
      fetch: async () =>
        new Response(`${event(1, "RunRequested")}event: delta\ndata: {"text":"x"}\n\n`, {
          headers: { "content-type": "text/event-stream" },
        }),
    });
    const read = async () => {
      for await (const _ of client.streamRun("run_s")) {
        // reading
      }
    };
    await expect(read()).rejects.toMatchObject({ code: "bad_response" });
  });
});
