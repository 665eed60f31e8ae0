import { describe, expect, it } from "vitest";
import { splitSse, splitSseMessages } from "../../src/inspector/sse.ts";

describe("splitSse", () => {
  it("returns complete messages' data and keeps the unfinished rest for the next chunk", () => {
    const first = splitSse(': stream of run_x\nretry: 1000\n\nid: 1\nevent: RunRequested\ndata: {"seq":1}\n\nid: 2\ndata: {"se');
    expect(first).toEqual({ data: ['{"seq":1}'], rest: 'id: 2\ndata: {"se' });
    const second = splitSse(`${first.rest}q":2}\n\n`);
    expect(second).toEqual({ data: ['{"seq":2}'], rest: "" });
  });

  it("joins several data lines with newlines and accepts CRLF line ends", () => {
    expect(splitSse("data: a\r\ndata:b\r\n\r\n")).toEqual({ data: ["a\nb"], rest: "" });
  });

  it("names each message's event, so the run stream's deltas are told apart from its events", () => {
    const { messages, rest } = splitSseMessages(
      'id: 3\nevent: StepStarted\ndata: {"seq":3}\n\nevent: delta\ndata: {"offset":0}\n\ndata: {"seq":4}\n\nevent: de',
    );
    expect(messages).toEqual([
      { event: "StepStarted", data: '{"seq":3}' },
      { event: "delta", data: '{"offset":0}' },
      { event: "message", data: '{"seq":4}' },
    ]);
    expect(rest).toBe("event: de");
  });
});
