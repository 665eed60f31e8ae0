/** `little events --follow --deltas` prints live model output as running text, never twice. */
import { describe, expect, it } from "vitest";
import { DeltaPrinter } from "../../src/cli/delta-printer.ts";
import type { ModelDelta } from "../../src/client/index.ts";

const plain = (_style: unknown, text: string) => text;
const delta = (offset: number, text: string, extra: Partial<ModelDelta> = {}): ModelDelta => ({
  sessionId: "worker:c1/draft:a1",
  callId: "worker:c1/draft:a1/model/1",
  call: 1,
  role: "worker",
  stepPath: "c1/draft",
  channel: "text",
  offset,
  text,
  ...extra,
});

describe("DeltaPrinter", () => {
  it("prints a header, then only new text; a resend of the text so far adds nothing; an event line ends the running line", () => {
    let out = "";
    const printer = new DeltaPrinter((text) => {
      out += text;
    }, plain as never);
    printer.delta(delta(0, "Hel"));
    printer.delta(delta(3, "lo"));
    printer.delta(delta(0, "Hello"));
    printer.delta(delta(5, ", world"));
    printer.endLine();
    out += "  12  RunCompleted\n";
    printer.delta(delta(0, "Plan", { callId: "planner:c1/model/2", call: 2, role: "planner", stepPath: null }));
    printer.endLine();
    expect(out).toBe("      ▸ c1/draft call 1 text: Hello, world\n  12  RunCompleted\n      ▸ planner call 2 text: Plan\n");
  });

  it("starts a retried attempt's text on a fresh line", () => {
    let out = "";
    const printer = new DeltaPrinter((text) => {
      out += text;
    }, plain as never);
    printer.delta(delta(0, "First"));
    printer.delta(delta(0, "Second"));
    printer.endLine();
    expect(out).toBe("      ▸ c1/draft call 1 text: First\n      ▸ c1/draft call 1 text: Second\n");
  });
});
