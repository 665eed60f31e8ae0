import { env } from "cloudflare:workers";
import { openai } from "@ai-sdk/openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { catalogOf, type RegisteredWorkflow } from "../../src/engine/run-environment.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";
import { tool } from "../../src/sdk/tool.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { deliver, nowSeconds, signDelivery } from "../reliability/security/support/webhook-delivery.ts";
import { runStub } from "../support/drive.ts";
import { call, runEvents } from "./support/api-call.ts";
import { databaseRunColumns, RUN_KEYED_EXEMPT, runData, runKeyedTables, schemaRunColumns } from "./support/run-data.ts";

// The webhook's tenant in the test bindings (LITTLE_WEBHOOK_TENANT), which the dev token also is.
const TENANT = "dev";
const BIG = "x".repeat(300 * 1024);
const models = [model(openai("gpt-4o-mini"), { description: "Fast model for short structured outputs." })];
const planner = { model: openai("gpt-5"), system: "Plan it." };
const text = z.object({ text: z.string() });

const child: RegisteredWorkflow = {
  definition: defineWorkflow({
    id: "purge.child",
    description: "Echo the text.",
    input: text,
    output: z.object({ echoed: z.string() }),
    models,
    planner,
    tools: {
      echo: tool({
        description: "Echo a text",
        inputSchema: text,
        outputSchema: z.object({ echoed: z.string() }),
        execute: async ({ text: t }: { text: string }) => ({ echoed: t }),
      }),
    },
    requiredTools: ["echo"],
  }),
  tools: {},
};

/** A run that uses everything that leaves data: a signal, an approved tool call with a blob-sized output, a child run (and a webhook starts it). */
const everything: RegisteredWorkflow = {
  definition: defineWorkflow({
    id: "purge.everything",
    description: "Wait for go, fetch the large text once approved, have the child echo, report.",
    input: text,
    output: z.looseObject({}),
    models,
    planner,
    signals: { go: { schema: z.object({}), description: "Go ahead" } },
    tools: {
      fetchLarge: tool({
        description: "Fetch a large text (a person approves)",
        inputSchema: text,
        outputSchema: z.object({ large: z.string() }),
        needsApproval: true,
        execute: async () => ({ large: BIG }),
      }),
    },
    requiredTools: ["fetchLarge"],
    workflows: ["purge.child"],
    // The test bindings' Worker secret (vitest.config.ts), which signDelivery signs with.
    webhook: { secret: "LITTLE_WEBHOOK_SECRET" },
  }),
  tools: {},
};

beforeEach(() =>
  overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {} }), workflows: catalogOf([everything, child]) }),
);
afterEach(() => overrideWiring({}));

type View = {
  status: string;
  awaitingSignals?: unknown[];
  approvals?: { approvalId: string; argsHash: string; status: string }[];
  children?: { runId: string }[];
};

/** Drives the run to its end through the API: sends the signal and approves the tool call when asked. */
async function completeThroughApi(runId: string): Promise<View> {
  for (let i = 0; i < 200; i++) {
    const view = (await call("GET", `/v1/runs/${runId}`)).json.run as View;
    if (["completed", "failed", "cancelled"].includes(view.status)) return view;
    if ((view.awaitingSignals ?? []).length > 0) await call("POST", `/v1/runs/${runId}/signals`, { body: { name: "go", payload: {} } });
    for (const a of view.approvals ?? [])
      if (a.status === "waiting_for_approval")
        await call("POST", `/v1/runs/${runId}/approvals/${a.approvalId}`, { body: { decision: "approve", argsHash: a.argsHash } });
    await runStub(runId, TENANT).waitForEnd(100);
  }
  throw new Error(`run ${runId} did not end`);
}

describe("every place a run leaves data is purged by its deletion", () => {
  it("lists every run-keyed table of the schema and of the database as purged, or exempt with a reason", async () => {
    const purged = new Set(runKeyedTables().map((t) => t.name));
    expect(purged).toContain("runs");
    expect(purged).toContain("webhook_deliveries");
    // A new table that names a run must be purged with it (a run_id and a tenant column) or exempted on purpose.
    for (const columns of [schemaRunColumns(), await databaseRunColumns()])
      for (const table of Object.keys(columns))
        expect(purged.has(table) || table in RUN_KEYED_EXEMPT, `${table}: ${columns[table]}`).toBe(true);
  });

  it("a webhook-started run with a signal, an approval, a blob and a child leaves nothing but tombstones", async () => {
    const body = JSON.stringify({ text: `purge me ${crypto.randomUUID()}` });
    const started = await deliver(body, signDelivery(`msg_${crypto.randomUUID()}`, body, nowSeconds()), "/v1/hooks/purge.everything");
    expect(started.status, started.text).toBe(202);
    const runId = started.runId as string;
    const ended = await completeThroughApi(runId);
    expect(ended.status).toBe("completed");
    const childId = ended.children?.[0]?.runId as string;
    expect(childId).toMatch(/^run_child_/);
    await runStub(childId, TENANT).waitForEnd(5_000);

    const types = new Set((await runEvents(runId)).map((e) => e.type));
    for (const used of ["SignalReceived", "ApprovalDecided", "ChildRunStarted", "ChildRunEnded"]) expect(types).toContain(used);
    const before = await runData(TENANT, runId);
    expect(before.object.tables.events).toBeGreaterThan(0);
    expect(before.blobs.length).toBeGreaterThan(0);
    expect(before.rows).toMatchObject({ runs: 1, webhook_deliveries: 1 });
    const childBefore = await runData(TENANT, childId);
    expect(childBefore.rows.runs).toBe(1);
    expect(Object.values(childBefore.object.tables).some((n) => n > 0)).toBe(true);

    const deleted = await call("DELETE", `/v1/runs/${runId}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.json.deleted).toMatchObject({ runId, workflowId: "purge.everything", by: "dev" });

    for (const id of [runId, childId]) {
      const after = await runData(TENANT, id);
      // The run object keeps one row: the marker that refuses its id (durable-objects/run-purge.ts).
      expect(after.object).toEqual({ tables: { meta: 1 }, keys: 0, alarm: null });
      expect(after.blobs).toEqual([]);
      expect(
        Object.values(after.rows).every((n) => n === 0),
        JSON.stringify(after.rows),
      ).toBe(true);
      const tomb = await env.DB.prepare("SELECT state, by, workflow_id FROM run_tombstones WHERE tenant = ? AND run_id = ?")
        .bind(TENANT, id)
        .first<{ state: string; by: string }>();
      expect(tomb).toMatchObject({ state: "done", by: "dev" });
    }
    expect((await call("GET", `/v1/runs/${childId}`)).json.error?.code).toBe("run_deleted");
  });
});
