/**
 * createWorker in workerd: the Worker's default export (src/worker.ts is built with it) serves
 * the registry it was given, its checks refuse a bad registry before anything is served, and a
 * tool run by the run object receives the Worker's env.
 */
import { env } from "cloudflare:workers";
import { openai } from "@ai-sdk/openai";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { EnvModelResolver } from "../src/adapters/models/env-model-resolver.ts";
import { workerCatalog } from "../src/create-worker.ts";
import { catalogOf, type RegisteredWorkflow } from "../src/engine/run-environment.ts";
import { defineWorkflow } from "../src/sdk/define-workflow.ts";
import { WorkflowDefinitionError } from "../src/sdk/errors/workflow-definition-error.ts";
import { WorkflowMissingToolError } from "../src/sdk/errors/workflow-missing-tool-error.ts";
import { model } from "../src/sdk/model.ts";
import { toolWithEnv } from "../src/sdk/tool.ts";
import { overrideWiring } from "../src/wiring.ts";
import { registeredWorkflows } from "../src/workflows.ts";
import { call } from "./api/support/api-call.ts";
import { toolCallLwir } from "./support/tool-call-lwir.ts";

afterEach(() => overrideWiring({}));

const envTool = toolWithEnv<Env>();
const readBindings = envTool({
  description: "Reports which of the Worker's bindings and vars it was handed.",
  inputSchema: z.object({ ref: z.string() }),
  outputSchema: z.object({ ref: z.string(), tenant: z.string(), d1: z.boolean(), sameEnv: z.boolean() }),
  execute: async ({ ref }, { context }) => ({
    ref,
    tenant: (context.env as unknown as Record<string, string>).LITTLE_WEBHOOK_TENANT ?? "",
    d1: typeof context.env.DB?.prepare === "function",
    sameEnv: context.env.DB === env.DB,
  }),
});

const bindingsWorkflow: RegisteredWorkflow = {
  definition: defineWorkflow({
    id: "worker.bindings",
    description: "Report the Worker's bindings a tool sees.",
    input: z.object({ ref: z.string() }),
    output: z.object({ ref: z.string(), tenant: z.string(), d1: z.boolean(), sameEnv: z.boolean() }),
    models: [model(openai("gpt-4o-mini"), { description: "Unused." })],
    planner: { model: openai("gpt-5"), system: "Plan one tool call." },
    tools: { bindings: readBindings },
  }),
  tools: {},
};

describe("createWorker", () => {
  it("the Worker's default export serves the registry src/worker.ts gave createWorker", async () => {
    const listed = await call("GET", "/v1/workflows");
    expect(listed.status).toBe(200);
    const ids = (listed.json.workflows as { id: string }[]).map((w) => w.id).sort();
    expect(ids).toEqual(registeredWorkflows.map((w) => w.definition.id).sort());
  });

  it("a tool run by the run object gets the Worker's env as context.env", async () => {
    overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {} }), workflows: catalogOf([bindingsWorkflow]) });
    const lwir = await toolCallLwir(bindingsWorkflow, "bindings", { ref: "{{ input.ref }}" });
    const r = await call("POST", "/v1/lwir/runs?wait=20", { body: { lwir, input: { ref: "r-1" } } });
    expect(r.json.run, r.text).toMatchObject({ status: "completed", output: { ref: "r-1", tenant: "dev", d1: true, sameEnv: true } });
    // The env is handed over, never recorded.
    const events = await call("GET", `/v1/runs/${(r.json.run as { runId: string }).runId}/events?limit=1000`);
    expect(events.text).not.toContain("test-admin-token");
  });

  it("refuses a registry with an id given twice, or a global tool it lacks, when the Worker loads", () => {
    const summarize = registeredWorkflows[0]?.definition;
    if (!summarize) throw new Error("no sample workflow");
    let duplicate: unknown;
    try {
      workerCatalog({ workflows: [summarize, { definition: summarize }] });
    } catch (error) {
      duplicate = error;
    }
    expect(duplicate).toBeInstanceOf(WorkflowDefinitionError);
    expect(duplicate).toMatchObject({ code: "workflow_definition_invalid", findings: [{ code: "workflow.duplicate_id", path: "$.id" }] });

    const needsCrm = defineWorkflow({
      id: "worker.needs-crm",
      description: "Look a customer up.",
      input: z.object({ ref: z.string() }),
      output: z.object({ ref: z.string() }),
      models: [model(openai("gpt-4o-mini"), { description: "Unused." })],
      planner: { model: openai("gpt-5"), system: "Plan a lookup." },
      globalTools: ["crmLookup"],
    });
    expect(() => workerCatalog({ workflows: [needsCrm] })).toThrow(WorkflowMissingToolError);
    expect(workerCatalog({ workflows: [needsCrm], tools: { crmLookup: readBindings } }).get("worker.needs-crm")?.tools).toHaveProperty(
      "crmLookup",
    );
  });
});
