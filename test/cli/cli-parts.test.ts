import { stripVTControlCharacters } from "node:util";
import { describe, expect, it } from "vitest";
import { normalizeWaitFlag } from "../../src/cli/commands/run.ts";
import { RunFollower, summarizeEvent, TYPE_WIDTH, typeMatcher } from "../../src/cli/event-summary.ts";
import { colorEnabled, formatDuration, keyValues, painter, table } from "../../src/cli/output.ts";
import { renderRun } from "../../src/cli/render-run.ts";
import { SseParser } from "../../src/client/sse-parser.ts";

/** The CLI's pure parts, exercised directly (the commands are tested end to end in api-commands.test.ts). */

describe("SseParser", () => {
  const feed = (chunks: string[], end = true) => {
    const parser = new SseParser();
    const messages = chunks.flatMap((chunk) => parser.push(chunk));
    if (end) messages.push(...parser.end());
    return { parser, messages };
  };

  it("parses id, event and data; ignores comments; joins multi-line data", () => {
    const { parser, messages } = feed([': comment\nretry: 250\n\nid: 1\nevent: RunStarted\ndata: {"a":\ndata: 1}\n\n']);
    expect(messages).toEqual([{ id: "1", event: "RunStarted", data: '{"a":\n1}' }]);
    expect(parser.retryMs).toBe(250);
    expect(parser.lastEventId).toBe("1");
  });

  it("gives the same messages however the text is split, for LF, CRLF and CR line ends", () => {
    const text = "id: 7\nevent: StepStarted\ndata: x\n\n:keepalive\n\nid: 8\ndata:y\n\n";
    for (const ending of ["\n", "\r\n", "\r"]) {
      const source = text.replaceAll("\n", ending);
      const whole = feed([source]).messages;
      expect(whole).toEqual([
        { id: "7", event: "StepStarted", data: "x" },
        { id: "8", event: "message", data: "y" },
      ]);
      for (let cut = 1; cut < source.length; cut++) {
        expect(feed([source.slice(0, cut), source.slice(cut)]).messages).toEqual(whole);
      }
      expect(feed(source.split("")).messages).toEqual(whole);
    }
  });

  it("never dispatches a message the connection cut off before its blank line", () => {
    const { messages } = feed(['id: 1\ndata: a\n\nid: 2\ndata: {"seq":2']);
    expect(messages).toEqual([{ id: "1", event: "message", data: "a" }]);
  });

  it("ignores a retry that is not a number and an id with NUL", () => {
    const { parser } = feed(["retry: soon\nid: a\u0000b\ndata: x\n\n"]);
    expect(parser.retryMs).toBeUndefined();
    expect(parser.lastEventId).toBeUndefined();
  });
});

describe("typeMatcher", () => {
  it("matches exact names and prefix globs, comma-separated", () => {
    const match = typeMatcher("harness.*, RunFailed");
    expect(match("harness.model.called")).toBe(true);
    expect(match("RunFailed")).toBe(true);
    expect(match("RunFailedSoon")).toBe(false);
    expect(match("StepStarted")).toBe(false);
    expect(typeMatcher(undefined)("anything")).toBe(true);
    expect(typeMatcher("*")("anything")).toBe(true);
  });
});

describe("summarizeEvent", () => {
  const event = (type: string, payload: unknown) => ({ seq: 1, runId: "r", type, at: 0, payload });

  it("picks the fields one looks for first", () => {
    expect(summarizeEvent(event("harness.model.called", { callId: "c1", providerId: "openai", modelId: "m", turn: 2 }))).toBe(
      "c1  openai/m  turn=2",
    );
    expect(summarizeEvent(event("harness.tool_call.started", { tool: "kb.search", callId: "t1" }))).toBe("kb.search  t1");
    expect(summarizeEvent(event("RunFailed", { causeCode: "model_error", message: "boom" }))).toBe("model_error:  boom");
    expect(summarizeEvent(event("StepSucceeded", { stepPath: "a/b", attempt: 2, output: {} }))).toBe("a/b  attempt=2");
    expect(summarizeEvent(event("StepFailed", { stepPath: "a", attempt: 1, error: { code: "E", message: "bad" } }))).toBe(
      "a  attempt=1  E: bad",
    );
    expect(summarizeEvent(event("RunCompleted", { versionId: "v", usage: { totalTokens: 9 } }))).toBe("v  9 tokens");
  });

  it("shows a fixer's repair: what failed, and the entrypoint's digest before and after", () => {
    const output = {
      entrypointReplaced: true,
      entrypoint: "totals.ts",
      failure: { code: "code_threw", message: "TypeError: Cannot read properties of undefined\n(reading 'reduce')" },
      sourceSha256: `sha256:${"a".repeat(64)}`,
      fixedSha256: `sha256:${"b".repeat(64)}`,
    };
    expect(summarizeEvent(event("harness.session.completed", { sessionId: "fixer:c1/t:a1:f1", role: "fixer", output }))).toBe(
      `fixer:c1/t:a1:f1  role=fixer  repaired code_threw: TypeError: Cannot read properties of undefined (reading 'reduce')  totals.ts sha256:${"a".repeat(12)}… -> sha256:${"b".repeat(12)}…`,
    );
    expect(summarizeEvent(event("harness.session.completed", { sessionId: "planner:c1", role: "planner", output: { lwir: {} } }))).toBe(
      "planner:c1  role=planner",
    );
  });

  it("names a failed outer-loop cycle's cause, step and error", () => {
    const failure = { causeCode: "step_failed", stepId: "lookup", stepPath: "c1/lookup", message: "Step c1/lookup failed: refused" };
    expect(summarizeEvent(event("OuterLoopCycleCompleted", { cycleNumber: 1, status: "failed", decision: "replan", failure }))).toBe(
      "cycle=1  failed  decision=replan  step_failed at lookup: Step c1/lookup failed: refused",
    );
    expect(summarizeEvent(event("OuterLoopCycleCompleted", { cycleNumber: 2, status: "completed", decision: "accept" }))).toBe(
      "cycle=2  completed  decision=accept",
    );
  });

  it("survives missing payload fields and unknown types", () => {
    expect(summarizeEvent(event("RunFailed", null))).toBe("");
    expect(summarizeEvent(event("harness.model.called", "junk"))).toBe("");
    expect(summarizeEvent(event("SomethingNew", { a: "x".repeat(200) }))).toMatch(/^\{"a":"x+…$/);
  });
});

describe("output", () => {
  it("colours only a TTY without NO_COLOR", () => {
    expect(colorEnabled({ isTTY: true }, {})).toBe(true);
    expect(colorEnabled({ isTTY: false }, {})).toBe(false);
    expect(colorEnabled({}, {})).toBe(false);
    expect(colorEnabled({ isTTY: true }, { NO_COLOR: "1" })).toBe(false);
  });

  it("aligns table columns by their visible width, with or without colour", () => {
    const rows = [
      ["run_1", { text: "completed", format: "green" as const }, "x"],
      ["run_22222", { text: "failed", format: "red" as const }, "y"],
    ];
    const plain = table(["ID", "STATUS", "NOTE"], rows, painter(false));
    expect(plain).toBe("ID         STATUS     NOTE\nrun_1      completed  x\nrun_22222  failed     y");
    const coloured = table(["ID", "STATUS", "NOTE"], rows, painter(true));
    expect(coloured).toContain("\u001b[");
    expect(stripVTControlCharacters(coloured)).toBe(plain);
  });

  it("aligns label/value lines, continuing multi-line values and skipping absent ones", () => {
    const text = keyValues(
      [
        ["status", "ok"],
        ["gone", undefined],
        ["output", "{\n  a\n}"],
      ],
      painter(false),
    );
    expect(text).toBe("status  ok\noutput  {\n          a\n        }");
  });

  it("formats durations", () => {
    expect(formatDuration(400)).toBe("400ms");
    expect(formatDuration(1500)).toBe("1.5s");
    expect(formatDuration(125_000)).toBe("2m 05s");
    expect(formatDuration(7_380_000)).toBe("2h 03m");
    expect(formatDuration(-1)).toBe("-");
  });
});

describe("--wait", () => {
  it("takes an optional number of seconds", () => {
    expect(normalizeWaitFlag(["wf", "--wait"])).toEqual(["wf", "--wait=60"]);
    expect(normalizeWaitFlag(["wf", "--wait", "15", "--json"])).toEqual(["wf", "--wait=15", "--json"]);
    expect(normalizeWaitFlag(["--wait", "--json", "wf"])).toEqual(["--wait=60", "--json", "wf"]);
    expect(normalizeWaitFlag(["--wait=5", "wf"])).toEqual(["--wait=5", "wf"]);
    expect(normalizeWaitFlag(["wf", "--", "--wait"])).toEqual(["wf", "--", "--wait"]);
  });
});

describe("the CLI reads the log with the engine's fold", () => {
  const event = (seq: number, type: string, payload: unknown) => ({ seq, runId: "r", type, at: seq, payload });

  it("RunFollower sees a run end exactly when the fold does, and skips what it cannot read", () => {
    const run = new RunFollower();
    run.apply(event(1, "RunRequested", { workflowId: "w", input: {}, trigger: { kind: "http" }, tenant: "t" }));
    run.apply(event(2, "harness.model.responded", { callId: "c" })); // malformed: left unfolded
    run.apply(event(3, "SomethingNewer", {}));
    expect([run.status, run.ended]).toEqual(["pending", false]);
    run.apply(event(4, "OccurrenceCompleted", { occurrenceId: "o1", output: {} }));
    expect([run.status, run.ended]).toEqual(["waiting", false]);
    run.apply(event(5, "RunCancelled", { reason: "stop" }));
    expect([run.status, run.ended]).toEqual(["cancelled", true]);
  });

  it("sizes the type column to the longest type of the event union", () => {
    expect(TYPE_WIDTH).toBe("harness.tool_call.succeeded".length);
  });
});

describe("renderRun: child runs", () => {
  const paint = painter(false);
  it("a parent waiting for its child says so and lists its children; a child names its parent", () => {
    const parent = renderRun(
      {
        runId: "run_p",
        workflowId: "support.escalate",
        status: "waiting",
        waitReason: "child",
        eventCount: 12,
        createdAt: 0,
        children: [{ runId: "run_child_abc", workflowId: "billing.refund", stepPath: "c1/refund", attempt: 1, status: "running" }],
      },
      undefined,
      paint,
    );
    expect(parent).toContain("waiting (child)");
    expect(parent).toMatch(/children\s+run_child_abc {2}billing\.refund {2}running {2}step c1\/refund/);
    const child = renderRun(
      {
        runId: "run_child_abc",
        workflowId: "billing.refund",
        status: "running",
        eventCount: 3,
        createdAt: 0,
        parent: { runId: "run_p", stepPath: "c1/refund" },
      },
      undefined,
      paint,
    );
    expect(child).toMatch(/parent\s+run_p \(step c1\/refund\)/);
  });

  it("summarizes the child events of a parent's log", () => {
    const started = summarizeEvent({
      seq: 5,
      runId: "run_p",
      type: "ChildRunStarted",
      at: 0,
      payload: { stepPath: "c1/refund", attempt: 1, childRunId: "run_child_abc", workflowId: "billing.refund" },
    });
    expect(started).toContain("child=run_child_abc");
  });
});
