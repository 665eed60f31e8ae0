import { openai } from "@ai-sdk/openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { catalogOf, type RegisteredWorkflow } from "../../src/engine/run-environment.ts";
import { describeTool } from "../../src/identity/tool-descriptors.ts";
import { digestJson } from "../../src/json/digest.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";
import { tool } from "../../src/sdk/tool.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { runStub } from "../support/drive.ts";
import { toolCallLwir } from "../support/tool-call-lwir.ts";
import { call, runEvents } from "./support/api-call.ts";

/** Refunds actually made, by order id: the side effect approvals guard. */
const refunds = new Map<string, number>();

const refundTool = tool({
  description: "Refund an order (a person must approve each refund)",
  inputSchema: z.object({ orderId: z.string(), amount: z.number() }),
  outputSchema: z.object({ refunded: z.number() }),
  needsApproval: true,
  execute: async ({ orderId, amount }: { orderId: string; amount: number }) => {
    refunds.set(orderId, (refunds.get(orderId) ?? 0) + amount);
    return { refunded: amount };
  },
});

const refundWorkflow: RegisteredWorkflow = {
  definition: defineWorkflow({
    id: "approve.refund",
    description: "Refund an order after approval.",
    input: z.object({ orderId: z.string(), amount: z.number() }),
    output: z.object({ refunded: z.number() }),
    models: [model(openai("gpt-4o-mini"), { description: "Unused." })],
    planner: { model: openai("gpt-5"), system: "Plan a refund." },
    tools: { refund: refundTool },
  }),
  tools: {},
};

const refundLwir = (timeoutMs?: number) =>
  toolCallLwir(
    refundWorkflow,
    "refund",
    { orderId: "{{ input.orderId }}", amount: "{{ input.amount }}" },
    timeoutMs !== undefined ? { timeoutMs } : {},
  );

beforeEach(() =>
  overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {} }), workflows: catalogOf([refundWorkflow]) }),
);
afterEach(() => overrideWiring({}));

type Approval = { approvalId: string; args: unknown; argsHash: string; status: string; tool: string; expiresAt: number };

async function startWaiting(orderId: string, timeoutMs?: number): Promise<{ runId: string; approval: Approval }> {
  const r = await call("POST", "/v1/lwir/runs", { body: { lwir: await refundLwir(timeoutMs), input: { orderId, amount: 40 } } });
  const runId = (r.json.run as { runId: string }).runId;
  for (let i = 0; i < 50; i++) {
    const list = await call("GET", `/v1/runs/${runId}/approvals`);
    const [approval] = list.json.approvals as Approval[];
    if (approval) return { runId, approval };
    await runStub(runId, "dev").waitForEnd(100);
  }
  throw new Error("no approval was requested");
}

/** The run's row in the run index (D1) as `GET /v1/runs` lists it, filtered as given. */
async function listed(runId: string, query: string): Promise<Record<string, unknown> | undefined> {
  const runs = (await call("GET", `/v1/runs?${query}&limit=200`)).json.runs as Record<string, unknown>[];
  return runs.find((r) => r.runId === runId);
}

/** Polls the index until the query lists the run (the slice writes the row just after the event). */
async function indexed(runId: string, query: string): Promise<Record<string, unknown> | undefined> {
  for (let i = 0; i < 50; i++) {
    const row = await listed(runId, query);
    if (row) return row;
    await runStub(runId, "dev").waitForEnd(100);
  }
  return undefined;
}

const decide = (runId: string, approvalId: string, decision: "approve" | "deny", argsHash: string) =>
  call("POST", `/v1/runs/${runId}/approvals/${approvalId}`, { body: { decision, argsHash } });

describe("tool approvals", () => {
  it("pauses the call as waiting_for_approval, refuses a decision for other arguments, runs once when approved", async () => {
    const orderId = `ord-${crypto.randomUUID().slice(0, 6)}`;
    const { runId, approval } = await startWaiting(orderId);
    expect(approval).toMatchObject({ tool: "refund", status: "waiting_for_approval", args: { orderId, amount: 40 } });
    expect(approval.argsHash).toBe(digestJson({ orderId, amount: 40 }));
    // Blocked on the decision: `waiting` for an `approval`, in the run view and in the run index.
    const waiting = (await call("GET", `/v1/runs/${runId}`)).json.run as Record<string, unknown>;
    expect(waiting).toMatchObject({ status: "waiting", waitReason: "approval", waitingUntil: approval.expiresAt });
    expect(await indexed(runId, "status=waiting")).toMatchObject({ status: "waiting", waitReason: "approval" });
    expect(await listed(runId, "status=waiting&waitReason=approval")).toMatchObject({ waitReason: "approval" });
    expect(await listed(runId, "waitReason=trigger")).toBeUndefined();
    expect(await listed(runId, "status=running")).toBeUndefined();
    expect(refunds.get(orderId)).toBeUndefined();

    const other = await decide(runId, approval.approvalId, "approve", digestJson({ orderId, amount: 4000 }));
    expect(other.status).toBe(409);
    expect(other.json.error?.code).toBe("approval_args_mismatch");
    expect((await runEvents(runId)).some((e) => e.type === "ApprovalDecided")).toBe(false);

    const approved = await decide(runId, approval.approvalId, "approve", approval.argsHash);
    expect(approved.status).toBe(200);
    expect(approved.json).toMatchObject({ created: true, approval: { status: "approved" } });
    // Decided: the run no longer waits (the view reads the log at once).
    const after = (await call("GET", `/v1/runs/${runId}`)).json.run as Record<string, unknown>;
    expect(["running", "completed"]).toContain(after.status);
    expect(after.waitReason).toBeUndefined();
    const ended = await runStub(runId, "dev").waitForEnd(10_000);
    expect(ended).toMatchObject({ status: "completed", output: { refunded: 40 } });
    expect(await listed(runId, "status=completed")).toMatchObject({ status: "completed", waitReason: null });
    expect(await listed(runId, "status=waiting")).toBeUndefined();
    expect(refunds.get(orderId)).toBe(40);
    const again = await decide(runId, approval.approvalId, "approve", approval.argsHash);
    expect(again.json).toMatchObject({ created: false });
    const flip = await decide(runId, approval.approvalId, "deny", approval.argsHash);
    expect(flip.json.error?.code).toBe("approval_already_decided");
    expect(refunds.get(orderId)).toBe(40);
  });

  it("a denial fails the step without calling the tool", async () => {
    const orderId = `ord-${crypto.randomUUID().slice(0, 6)}`;
    const { runId, approval } = await startWaiting(orderId);
    expect((await decide(runId, approval.approvalId, "deny", approval.argsHash)).status).toBe(200);
    const ended = await runStub(runId, "dev").waitForEnd(10_000);
    expect(ended.status).toBe("failed");
    expect(ended.cause).toMatchObject({ code: "step_failed", details: { code: "approval_denied" } });
    expect(refunds.get(orderId)).toBeUndefined();
  });

  it("a timeout fails the step; a decision after it is refused", async () => {
    const orderId = `ord-${crypto.randomUUID().slice(0, 6)}`;
    const { runId, approval } = await startWaiting(orderId, 300);
    const ended = await runStub(runId, "dev").waitForEnd(10_000);
    expect(ended.status).toBe("failed");
    expect(ended.cause).toMatchObject({ code: "step_failed", details: { code: "step_timeout" } });
    const late = await decide(runId, approval.approvalId, "approve", approval.argsHash);
    expect(late.status).toBe(409);
    expect(refunds.get(orderId)).toBeUndefined();
    expect(
      (await call("POST", `/v1/runs/${runId}/approvals/apr_nope`, { body: { decision: "approve", argsHash: approval.argsHash } })).status,
    ).toBe(404);
  });

  it("needsApproval is part of the tool's descriptor hash (a changed approval rule is drift)", async () => {
    const { needsApproval: _drop, ...unguarded } = refundTool;
    const guarded = await describeTool("refund", refundTool);
    const plain = await describeTool("refund", unguarded as typeof refundTool);
    expect(guarded.approval).toBe("always");
    expect(plain.approval).toBeUndefined();
    expect(guarded.descriptorHash).not.toBe(plain.descriptorHash);
  });
});
