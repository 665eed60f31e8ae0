import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { catalogOf } from "../../src/engine/run-environment.ts";
import { REVIEW_TIMEOUT_MS, refundReview } from "../../src/examples/billing-refund-review.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { runStub } from "../support/drive.ts";
import { call, runEvents } from "./support/api-call.ts";

beforeEach(() =>
  overrideWiring({
    models: new EnvModelResolver({ mode: "offline", secrets: {} }),
    workflows: catalogOf([{ definition: refundReview, tools: {} }]),
  }),
);
afterEach(() => overrideWiring({}));

type View = Record<string, unknown> & { status: string; waitReason?: string };

/** Starts billing.refund-review and returns once it waits for the manager (the offline planner plans it). */
async function reviewWaiting(orderId: string): Promise<{ runId: string; view: View }> {
  const r = await call("POST", "/v1/workflows/billing.refund-review/runs", {
    body: { input: { orderId, amountCents: 1250, reason: "Charged twice" } },
  });
  expect(r.status, r.text).toBe(202);
  const runId = (r.json.run as { runId: string }).runId;
  for (let i = 0; i < 200; i++) {
    const view = (await call("GET", `/v1/runs/${runId}`)).json.run as View;
    if (view.status === "waiting" || view.status === "failed") return { runId, view };
    await runStub(runId, "dev").waitForEnd(50);
  }
  throw new Error("the review never waited");
}

describe("billing.refund-review, offline, through HTTP, the run object and D1", () => {
  it("drafts a summary, waits for manager.decision with its schema shown, then refunds when approved", async () => {
    const started = Date.now();
    const { runId, view } = await reviewWaiting("ord-approve");
    expect(view).toMatchObject({ status: "waiting", waitReason: "signal" });
    expect(view.waitingUntil as number).toBeGreaterThanOrEqual(started + REVIEW_TIMEOUT_MS);
    expect(view.awaitingSignals).toMatchObject([
      { name: "manager.decision", schema: { type: "object", properties: { approved: { type: "boolean" } } } },
    ]);
    const sent = await call("POST", `/v1/runs/${runId}/signals`, {
      body: { name: "manager.decision", payload: { approved: true, note: "Duplicate charge confirmed" } },
    });
    expect(sent.status).toBe(202);
    const ended = await runStub(runId, "dev").waitForEnd(20_000);
    expect(ended).toMatchObject({ status: "completed", output: { status: "refunded", note: "Duplicate charge confirmed" } });
    const types = (await runEvents(runId)).map((e) => e.type);
    expect(types).toContain("WaitStarted");
    expect(types.filter((t) => t === "harness.tool_call.started" || t === "StepSkipped").length).toBeGreaterThan(0);
  });

  it("declines when the manager says no: the refund step is skipped", async () => {
    const { runId } = await reviewWaiting("ord-decline");
    await call("POST", `/v1/runs/${runId}/signals`, { body: { name: "manager.decision", payload: { approved: false } } });
    const ended = await runStub(runId, "dev").waitForEnd(20_000);
    expect(ended).toMatchObject({ status: "completed", output: { status: "declined", note: "Declined by the manager" } });
    const skipped = (await runEvents(runId)).filter((e) => e.type === "StepSkipped").map((e) => e.payload.stepPath);
    expect(skipped).toEqual(["c1/refund"]);
  });
});
