/**
 * Issue 15, item 9b: every tool used to receive every secret in `permissions.secrets`. Now a tool
 * gets only the secrets its own descriptor declares (`tool({ secrets })`), and only those the
 * version permits. Through the real path: the Worker's fetch handler, the run object, D1 secrets.
 */
import { openai } from "@ai-sdk/openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { EnvModelResolver } from "../../../src/adapters/models/env-model-resolver.ts";
import { catalogOf, type RegisteredWorkflow } from "../../../src/engine/run-environment.ts";
import { snapshotDefinition } from "../../../src/identity/definition-snapshot.ts";
import { describeTool } from "../../../src/identity/tool-descriptors.ts";
import { LWIR_API_VERSION, LWIR_KIND } from "../../../src/lwir/types.ts";
import { defineWorkflow } from "../../../src/sdk/define-workflow.ts";
import { model } from "../../../src/sdk/model.ts";
import { tool } from "../../../src/sdk/tool.ts";
import { overrideWiring } from "../../../src/wiring.ts";
import { call, tenantToken } from "../../api/support/api-call.ts";

/** The secret names each tool was handed, by tool, for the run in flight. */
const given = new Map<string, string[]>();

type Options = { context?: { secrets?: Record<string, string> } };
const recorder = (name: string) => async (_input: unknown, options: Options) => {
  given.set(name, Object.keys(options.context?.secrets ?? {}).sort());
  return { ok: true };
};

const noInput = z.object({});
const workflow: RegisteredWorkflow = {
  definition: defineWorkflow({
    id: "secrets.per-tool",
    description: "Call the CRM and the payment provider, each with its own key, and log a note.",
    input: z.object({}),
    output: { mode: "json" },
    models: [model(openai("gpt-4o-mini"), { description: "Unused." })],
    planner: { model: openai("gpt-5"), system: "Unused: the LWIR is given." },
    tools: {
      crm: tool({ description: "Read the CRM", inputSchema: noInput, secrets: ["CRM_TOKEN"], execute: recorder("crm") }),
      refund: tool({ description: "Refund a payment", inputSchema: noInput, secrets: ["STRIPE_KEY"], execute: recorder("refund") }),
      both: tool({ description: "Reconcile", inputSchema: noInput, secrets: ["STRIPE_KEY", "CRM_TOKEN"], execute: recorder("both") }),
      note: tool({ description: "Write a log note", inputSchema: noInput, execute: recorder("note") }),
    },
    secrets: ["CRM_TOKEN", "STRIPE_KEY"],
  }),
  tools: {},
};

async function lwirOf(permittedSecrets: string[]): Promise<Record<string, unknown>> {
  const caps = await snapshotDefinition(workflow.definition);
  const ids = ["both", "crm", "note", "refund"];
  return {
    apiVersion: LWIR_API_VERSION,
    kind: LWIR_KIND,
    metadata: { name: workflow.definition.id, version: "0.1.0", description: "each tool once" },
    input: { schema: caps.inputSchema },
    output: { schema: caps.outputSchema },
    permissions: { models: [], tools: ids, secrets: permittedSecrets, network: [] },
    steps: ids.map((id, i) => ({
      id,
      uses: "tool.call",
      needs: i === 0 ? [] : [ids[i - 1]],
      with: { tool: id, input: {} },
      output: { mode: "json" },
    })),
  };
}

beforeEach(() => {
  given.clear();
  overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {} }), workflows: catalogOf([workflow]) });
});
afterEach(() => overrideWiring({}));

async function tenantWithBothSecrets(): Promise<string> {
  const token = await tenantToken(`toolsecrets_${crypto.randomUUID().slice(0, 8)}`);
  for (const [name, value] of [
    ["CRM_TOKEN", "crm-canary-7f3a9c21"],
    ["STRIPE_KEY", "sk-canary-0b8e4d55"],
  ]) {
    const put = await call("PUT", `/v1/secrets/${name}`, { token, body: { value } });
    expect(put.status, put.text).toBe(200);
  }
  return token;
}

describe("tools receive only the secrets their descriptor declares (issue 15, item 9b)", () => {
  it("a run permitting both secrets hands each tool only its declared ones; a tool that declares none gets none", async () => {
    const token = await tenantWithBothSecrets();
    const r = await call("POST", "/v1/lwir/runs?wait=20", { token, body: { lwir: await lwirOf(["CRM_TOKEN", "STRIPE_KEY"]), input: {} } });
    expect((r.json.run as { status: string }).status, r.text).toBe("completed");
    expect(Object.fromEntries(given)).toEqual({
      crm: ["CRM_TOKEN"],
      refund: ["STRIPE_KEY"],
      both: ["CRM_TOKEN", "STRIPE_KEY"],
      note: [],
    });
  });

  it("the version's permissions still cap it: a declared secret the LWIR does not permit is not given", async () => {
    const token = await tenantWithBothSecrets();
    const r = await call("POST", "/v1/lwir/runs?wait=20", { token, body: { lwir: await lwirOf(["CRM_TOKEN"]), input: {} } });
    expect((r.json.run as { status: string }).status, r.text).toBe("completed");
    expect(Object.fromEntries(given)).toEqual({ crm: ["CRM_TOKEN"], refund: [], both: ["CRM_TOKEN"], note: [] });
  });

  it("declared secrets are a capability: in the descriptor hash, order-free, absent when none", async () => {
    const base = { description: "Read the CRM", inputSchema: noInput, execute: recorder("x") };
    const none = await describeTool("t", tool(base));
    const one = await describeTool("t", tool({ ...base, secrets: ["CRM_TOKEN"] }));
    const two = await describeTool("t", tool({ ...base, secrets: ["STRIPE_KEY", "CRM_TOKEN"] }));
    const twoAgain = await describeTool("t", tool({ ...base, secrets: ["CRM_TOKEN", "STRIPE_KEY", "CRM_TOKEN"] }));
    expect(none.secrets).toBeUndefined();
    expect(new Set([none.descriptorHash, one.descriptorHash, two.descriptorHash]).size).toBe(3);
    expect(twoAgain.descriptorHash).toBe(two.descriptorHash);
    expect(two.secrets).toEqual(["CRM_TOKEN", "STRIPE_KEY"]);
  });

  it("a tool that declares a secret the workflow does not bind is refused by name, and bad names by tool()", async () => {
    const definition = defineWorkflow({
      id: "secrets.unbound",
      description: "Read the CRM.",
      input: z.object({}),
      output: { mode: "json" },
      models: [model(openai("gpt-4o-mini"), { description: "Unused." })],
      planner: { model: openai("gpt-5"), system: "Unused." },
      tools: { crm: tool({ description: "Read the CRM", inputSchema: noInput, secrets: ["OTHER_KEY"], execute: recorder("crm") }) },
      secrets: ["CRM_TOKEN"],
    });
    await expect(snapshotDefinition(definition)).rejects.toMatchObject({
      code: "workflow_definition_invalid",
      findings: [expect.objectContaining({ code: "definition.tool_secret_unbound", path: "$.tools.crm.secrets" })],
    });
    expect(() => tool({ description: "x", inputSchema: noInput, secrets: ["lower-case"] })).toThrow(/secrets lists secret names/);
  });
});
