/**
 * Traces and logs of runs through a real `wrangler dev` (issue 30), exported to a test OTLP
 * receiver that decodes every request with the OpenTelemetry protobuf definitions
 * (support/otlp-receiver.ts): the tree of a planned run under the caller's `traceparent`, times
 * matching the log, an approval's wait, and a collector that is down.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, INPUT, type RunEvent, refundLwir, runOf, SEED_WORKFLOW } from "./support/api.ts";
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "./support/otlp-receiver.ts";
import { startWranglerDev, type WranglerDev } from "./support/wrangler-dev.ts";

let receiver: OtlpReceiver;
let dev: WranglerDev;
const CALLER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN = "00f067aa0ba902b7";

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  dev = await startWranglerDev({
    vars: {
      LITTLE_OTLP_ENDPOINT: receiver.url,
      LITTLE_OTLP_HEADERS: "x-honeycomb-team=test-key,x-other=a%20b",
      LITTLE_OTLP_SERVICE_NAME: "little-e2e",
    },
  });
});
afterAll(async () => {
  await dev?.dispose();
  await receiver?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The spans of one trace, once its root (the run's span) has arrived. */
async function traceOf(traceId: string, rootName: string): Promise<ReceivedSpan[]> {
  const until = Date.now() + 20_000;
  for (;;) {
    const spans = receiver.spans.filter((s) => s.traceId === traceId);
    if (spans.some((s) => s.name === rootName)) return spans;
    if (Date.now() > until) throw new Error(`no root ${rootName} for ${traceId}; got ${spans.map((s) => s.name).join(", ")}`);
    await sleep(100);
  }
}

function one(spans: ReceivedSpan[], predicate: (s: ReceivedSpan) => boolean, what: string): ReceivedSpan {
  const found = spans.filter(predicate);
  expect(found, what).toHaveLength(1);
  return found[0] as ReceivedSpan;
}

describe("OTLP traces of runs", () => {
  it("a planned run is one tree under the caller's span: compile, planner calls, steps, with the log's times", async () => {
    const api = client(dev.url, dev.devToken);
    const started = await api.call("POST", `/v1/workflows/${SEED_WORKFLOW}/runs`, {
      body: { input: INPUT },
      headers: { traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` },
    });
    expect(started.status, started.text).toBe(202);
    const { run } = await api.pollUntilEnded(runOf(started).runId);
    expect(run.status).toBe("completed");
    expect((run as { traceId?: string }).traceId).toBe(CALLER_TRACE);
    const events: RunEvent[] = await api.events(run.runId);
    const spans = await traceOf(CALLER_TRACE, `run ${SEED_WORKFLOW}`);

    // One tree: unique ids, every parent in the trace, the root's parent the caller's span.
    const ids = new Set(spans.map((s) => s.spanId));
    expect(ids.size).toBe(spans.length);
    const root = one(spans, (s) => s.name === `run ${SEED_WORKFLOW}`, "the run's span");
    expect(root.parentSpanId).toBe(CALLER_SPAN);
    for (const s of spans) if (s !== root) expect(ids.has(s.parentSpanId ?? ""), `${s.name}'s parent`).toBe(true);
    expect(root.attributes).toMatchObject({
      "little.run_id": run.runId,
      "little.workflow_id": SEED_WORKFLOW,
      "little.tenant": "dev",
      "little.status": "completed",
    });
    expect(root.attributes["little.version_id"]).toBe(run.versionId);
    expect(root.status.code).toBe(1);
    expect(root.serviceName).toBe("little-e2e");
    expect(root.startMs).toBe(events[0]?.at);
    expect(root.endMs).toBe(events.at(-1)?.at);

    const compile = one(spans, (s) => s.name === "compile cycle 1", "the compile cycle");
    const planner = one(spans, (s) => s.name === "planner session", "the planner session");
    expect(planner.parentSpanId).toBe(compile.spanId);
    const plannerCalls = spans.filter((s) => s.parentSpanId === planner.spanId);
    expect(plannerCalls.some((s) => s.name.startsWith("chat ") && s.attributes["gen_ai.operation.name"] === "chat")).toBe(true);
    expect(plannerCalls.some((s) => s.name === "execute_tool submit_lwir")).toBe(true);
    const model = plannerCalls.find((s) => s.name.startsWith("chat ")) as ReceivedSpan;
    expect(typeof model.attributes["gen_ai.usage.input_tokens"]).toBe("number");
    expect(model.attributes["gen_ai.request.model"]).toBeTypeOf("string");
    expect(model.kind).toBe(3); // SPAN_KIND_CLIENT

    // Each step attempt: a span with the step's times from the log.
    const stepStarts = events.filter((e) => e.type === "StepStarted");
    expect(stepStarts.length).toBeGreaterThan(0);
    for (const startedStep of stepStarts) {
      const path = startedStep.payload.stepPath as string;
      const ended = events.find((e) => e.type === "StepSucceeded" && e.payload.stepPath === path) as RunEvent;
      const span = one(spans, (s) => s.name === `step ${path}`, `step ${path}`);
      expect({ start: span.startMs, end: span.endMs }).toEqual({ start: startedStep.at, end: ended.at });
      expect(span.attributes["little.step_kind"]).toBeTypeOf("string");
    }

    // The collector got the secret headers, protobuf by default.
    const request = receiver.requests.at(-1);
    expect(request?.contentType).toBe("application/x-protobuf");
    expect(request?.headers["x-honeycomb-team"]).toBe("test-key");
    expect(request?.headers["x-other"]).toBe("a b");

    // A log line per transition, with the trace id, never the input.
    const lines = dev.logs.split("\n").filter((l) => l.includes('"run transition"') && l.includes(run.runId));
    const transitions = lines.map((l) => JSON.parse(l.slice(l.indexOf("{"))) as { transition: string; traceId: string });
    expect(transitions.map((t) => t.transition)).toEqual(expect.arrayContaining(["requested", "started", "step_ended", "ended"]));
    for (const t of transitions) expect(t.traceId).toBe(CALLER_TRACE);
    for (const l of lines) expect(l).not.toContain(INPUT.transcript);
  });

  it("an approval is a wait span of its duration under its step", async () => {
    const api = client(dev.url, dev.devToken);
    const lwir = await refundLwir(api);
    const held = runOf(
      await api.call("POST", "/v1/lwir/runs", { body: { lwir, input: { orderId: "o-1", amountCents: 500, reason: "x" } } }),
    );
    let approval: { approvalId: string; argsHash: string } | undefined;
    for (let i = 0; i < 100 && !approval; i++) {
      approval = ((await api.call("GET", `/v1/runs/${held.runId}/approvals`)).json.approvals as (typeof approval)[] | undefined)?.[0];
      if (!approval) await sleep(100);
    }
    if (!approval) throw new Error("no approval listed");
    await sleep(300);
    await api.call("POST", `/v1/runs/${held.runId}/approvals/${approval.approvalId}`, {
      body: { decision: "approve", argsHash: approval.argsHash },
    });
    const { run } = await api.pollUntilEnded(held.runId);
    expect(run.status).toBe("completed");
    const events = await api.events(run.runId);
    const spans = await traceOf((run as { traceId?: string }).traceId as string, "run billing.refund");
    const wait = one(spans, (s) => s.name.startsWith("wait approval "), "the approval's wait");
    const asked = events.find((e) => e.type === "ApprovalRequested") as RunEvent;
    const decided = events.find((e) => e.type === "ApprovalDecided") as RunEvent;
    expect({ start: wait.startMs, end: wait.endMs }).toEqual({ start: asked.at, end: decided.at });
    expect(wait.endMs - wait.startMs).toBeGreaterThanOrEqual(250);
    expect(wait.attributes["little.approval_decision"]).toBe("approved");
    const step = spans.find((s) => s.spanId === wait.parentSpanId);
    expect(step?.name).toMatch(/^step .*refund/);
  });

  it("a collector that is down: the run completes as fast, its spans are counted dropped", async () => {
    const api = client(dev.url, dev.devToken);
    receiver.status = 503;
    try {
      const before = receiver.spans.length;
      const t0 = Date.now();
      const started = await api.call("POST", `/v1/workflows/${SEED_WORKFLOW}/runs?wait=30`, { body: { input: INPUT } });
      expect(started.status, started.text).toBe(200);
      expect(runOf(started).status).toBe("completed");
      // The first backoff alone is 250 ms and the retries take 5 s: none of that is on the run's path.
      expect(Date.now() - t0).toBeLessThan(5_000);
      const until = Date.now() + 20_000;
      while (!dev.logs.includes('"spans dropped"') && Date.now() < until) await sleep(200);
      const dropped = dev.logs.split("\n").find((l) => l.includes('"spans dropped"') && l.includes(runOf(started).runId));
      expect(dropped, "a dropped-spans line for the run").toBeDefined();
      expect(receiver.spans.length).toBe(before);
    } finally {
      receiver.status = 200;
    }
  });
});
