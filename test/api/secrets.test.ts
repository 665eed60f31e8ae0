import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { openai } from "@ai-sdk/openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { D1SealedRows } from "../../src/adapters/d1/d1-sealed-rows.ts";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { SealedSecretStore } from "../../src/adapters/secrets/sealed-secret-store.ts";
import { catalogOf, type RegisteredWorkflow } from "../../src/engine/run-environment.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";
import { tool } from "../../src/sdk/tool.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { rawRunStub, runStub } from "../support/drive.ts";
import { toolCallLwir } from "../support/tool-call-lwir.ts";
import { call, tenantToken } from "./support/api-call.ts";

/** What the tool saw in its context, by run: proof the secret reached the tool. */
const seen = new Map<string, string | undefined>();

const leakyTool = tool({
  description: "Use the CRM token, and (badly) echo it back in several encodings",
  inputSchema: z.object({ ref: z.string(), fail: z.boolean() }),
  outputSchema: z.object({
    plain: z.string(),
    b64: z.string(),
    hex: z.string(),
    url: z.string(),
    nested: z.record(z.string(), z.string()),
  }),
  secrets: ["CRM_TOKEN"],
  execute: async ({ ref, fail }: { ref: string; fail: boolean }, options: { context?: { secrets?: Record<string, string> } }) => {
    const token = options.context?.secrets?.CRM_TOKEN;
    seen.set(ref, token);
    if (!token) throw new Error("no token given");
    if (fail) throw new Error(`CRM refused token ${token} (hex ${Buffer.from(token).toString("hex")})`);
    return {
      plain: `Bearer ${token}`,
      b64: btoa(token),
      hex: Buffer.from(token).toString("hex"),
      url: `https://crm.example/?t=${encodeURIComponent(token)}`,
      nested: { [token]: token },
    };
  },
});

const canaryWorkflow: RegisteredWorkflow = {
  definition: defineWorkflow({
    id: "secrets.canary",
    description: "Call the CRM with a secret token.",
    input: z.object({ ref: z.string(), fail: z.boolean() }),
    output: z.object({ plain: z.string(), b64: z.string(), hex: z.string(), url: z.string(), nested: z.record(z.string(), z.string()) }),
    models: [model(openai("gpt-4o-mini"), { description: "Unused." })],
    planner: { model: openai("gpt-5"), system: "Plan a CRM call." },
    tools: { leak: leakyTool },
    secrets: ["CRM_TOKEN"],
  }),
  tools: {},
};

const canaryLwir = () =>
  toolCallLwir(canaryWorkflow, "leak", { ref: "{{ input.ref }}", fail: "{{ input.fail }}" }, { secrets: ["CRM_TOKEN"] });

const offline = new EnvModelResolver({ mode: "offline", secrets: {} });
beforeEach(() => overrideWiring({ models: offline, workflows: catalogOf([canaryWorkflow]) }));
afterEach(() => overrideWiring({}));

/** Every form a canary may take on its way out. */
function forms(secret: string): string[] {
  const hex = Buffer.from(secret).toString("hex");
  return [secret, btoa(secret), hex, hex.toUpperCase(), encodeURIComponent(secret)];
}

/** Everything D1 holds, as text. */
async function dumpD1(): Promise<string> {
  const tables = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
  ).all<{ name: string }>();
  const parts: string[] = [];
  for (const { name } of tables.results) parts.push(JSON.stringify((await env.DB.prepare(`SELECT * FROM "${name}"`).all()).results));
  return parts.join("\n");
}

async function dumpRunObject(runId: string, tenant: string): Promise<string> {
  return runInDurableObject(rawRunStub(runId, tenant), (_instance, state) => {
    const tables = state.storage.sql
      .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '_cf_%'")
      .toArray();
    return tables.map(({ name }) => JSON.stringify(state.storage.sql.exec(`SELECT * FROM "${name}"`).toArray())).join("\n");
  });
}

describe("secret bindings", () => {
  it("gives the permitted secret to the tool and keeps every encoding of it out of everything stored and served", async () => {
    const tenant = `sec_${crypto.randomUUID().slice(0, 8)}`;
    const token = await tenantToken(tenant);
    const canary = `cnry/+=?&${crypto.randomUUID()}`;
    const put = await call("PUT", "/v1/secrets/CRM_TOKEN", { token, body: { value: canary } });
    expect(put.status).toBe(200);
    const listed = await call("GET", "/v1/secrets", { token });
    expect(listed.json).toMatchObject({ secrets: [{ name: "CRM_TOKEN" }], keyConfigured: true });

    const served: string[] = [put.text, listed.text];
    const runIds: string[] = [];
    for (const fail of [false, true]) {
      const ref = `ref-${fail}-${crypto.randomUUID().slice(0, 6)}`;
      const r = await call("POST", "/v1/lwir/runs?wait=20", { token, body: { lwir: await canaryLwir(), input: { ref, fail } } });
      const run = r.json.run as { runId: string; status: string; output?: Record<string, unknown>; cause?: { message: string } };
      runIds.push(run.runId);
      expect(seen.get(ref)).toBe(canary);
      expect(run.status).toBe(fail ? "failed" : "completed");
      if (!fail) expect(run.output?.plain).toBe("Bearer [redacted:CRM_TOKEN]");
      else expect(run.cause?.message).toContain("[redacted:CRM_TOKEN]");
      served.push(r.text);
      served.push((await call("GET", `/v1/runs/${run.runId}`, { token })).text);
      served.push((await call("GET", `/v1/runs/${run.runId}/events?limit=1000`, { token })).text);
      served.push((await call("GET", `/v1/runs/${run.runId}/events/stream`, { token })).text);
    }
    served.push((await call("GET", "/v1/runs", { token })).text);
    const stored = [await dumpD1(), ...(await Promise.all(runIds.map((id) => dumpRunObject(id, tenant))))];
    const everything = [...served, ...stored].join("\n");
    expect(everything).toContain("[redacted:CRM_TOKEN]");
    for (const form of forms(canary)) expect(everything.includes(form), `found ${form}`).toBe(false);
  });

  it("refuses to start when the workflow binds secrets and no key is configured, creating nothing", async () => {
    overrideWiring({
      models: offline,
      workflows: catalogOf([canaryWorkflow]),
      secrets: new SealedSecretStore(new D1SealedRows(env.DB), undefined),
    });
    const runId = `nokey_${crypto.randomUUID().slice(0, 8)}`;
    const r = await call("POST", "/v1/lwir/runs", { body: { runId, lwir: await canaryLwir(), input: { ref: runId, fail: false } } });
    expect(r.status).toBe(409);
    expect(r.json.error?.code).toBe("secrets_key_missing");
    expect((await call("GET", `/v1/runs/${runId}`)).status).toBe(404);
    expect((await call("PUT", "/v1/secrets/CRM_TOKEN", { body: { value: "x-value" } })).json.error?.code).toBe("secrets_key_missing");

    // Started past the API (straight at the run object): it fails closed before any step.
    await runStub(runId).start({
      runId,
      workflowId: "secrets.canary",
      input: { ref: runId, fail: false },
      trigger: { kind: "programmatic" },
      lwir: await canaryLwir(),
    });
    const ended = await runStub(runId).waitForEnd(10_000);
    expect(ended).toMatchObject({ status: "failed", cause: { code: "secrets_unavailable" } });
    const events = await runStub(runId).events({ limit: 100 });
    expect(events.some((e) => e.type === "StepStarted" || e.type === "harness.session.started")).toBe(false);
    expect(seen.has(runId)).toBe(false);
  });

  it("refuses to start when a bound secret is not set for the tenant, naming it", async () => {
    const token = await tenantToken(`unset_${crypto.randomUUID().slice(0, 8)}`);
    const r = await call("POST", "/v1/lwir/runs", { token, body: { lwir: await canaryLwir(), input: { ref: "unset", fail: false } } });
    expect(r.status).toBe(409);
    expect(r.json.error).toMatchObject({ code: "secret_missing", message: expect.stringContaining("CRM_TOKEN") });
  });
});
