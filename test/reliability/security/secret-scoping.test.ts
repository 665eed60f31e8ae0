/**
 * Issue 24, "Also": shipped workflows declare no secrets, so scoping could not be attacked
 * black-box. This test-only workflow binds API_KEY to one tool (`vault`) and to code
 * (`sandbox.env`), not to another tool (`peek`). Through the real path — the Worker's fetch
 * handler, D1 secrets, the run object, a Worker Loader isolate — the key's value never reaches
 * the other tool, the event log, the SSE stream, the inspector's page, nor the fixer's prompt
 * (the failing code throws with the key in its message).
 */

import { exports } from "cloudflare:workers";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { catalogOf, type RegisteredWorkflow } from "../../../src/engine/run-environment.ts";
import { snapshotDefinition } from "../../../src/identity/definition-snapshot.ts";
import { digestText } from "../../../src/json/digest.ts";
import { LWIR_API_VERSION, LWIR_KIND } from "../../../src/lwir/types.ts";
import { defineWorkflow } from "../../../src/sdk/define-workflow.ts";
import { model } from "../../../src/sdk/model.ts";
import { tool } from "../../../src/sdk/tool.ts";
import { overrideWiring } from "../../../src/wiring.ts";
import { call, tenantToken } from "../../api/support/api-call.ts";
import { promptText, result } from "../../support/scripted-models.ts";

const KEY = "sk-scoped-canary-7f3a91c2e4";
const FIXED = "export function run() { return { fixed: true }; }\n";
const LEAKY =
  'export function run({ env }) { console.log("using " + env.API_KEY); throw new Error("upstream refused key " + env.API_KEY); }\n';

/** Every own property of what a tool is handed, as text (bindings and functions by name only). */
function everything(value: unknown, depth = 0): string {
  if (depth > 4 || value === null || typeof value !== "object") return typeof value === "function" ? "[fn]" : String(value);
  return Object.entries(value)
    .map(([k, v]) => `${k}=${everything(v, depth + 1)}`)
    .join(";");
}

const seen: { peek?: string; peekSecrets?: string[]; vaultHadKey?: boolean } = {};

const fixer = new MockLanguageModelV4({
  provider: "mock",
  modelId: "fixer",
  doGenerate: async () =>
    result([{ type: "tool-call", toolCallId: "fix-1", toolName: "submit_fix", input: JSON.stringify({ source: FIXED }) }]),
});

const noInput = z.object({});
const workflow: RegisteredWorkflow = {
  definition: defineWorkflow({
    id: "secrets.scoped",
    description: "Call a vault with a key, peek at nothing, and run code with the key.",
    input: z.object({}),
    output: { mode: "json" },
    models: [model(fixer, { description: "repairs code", id: "fixer" })],
    planner: { model: fixer, system: "Unused: the LWIR is given." },
    secrets: ["API_KEY"],
    sandbox: { env: ["API_KEY"] },
    tools: {
      vault: tool({
        description: "Call the vault with the key",
        inputSchema: noInput,
        secrets: ["API_KEY"],
        execute: async (_input, { context }) => {
          seen.vaultHadKey = context.secrets.API_KEY === KEY;
          // A careless tool echoes its key: the log must hold it redacted.
          return { echoed: context.secrets.API_KEY };
        },
      }),
      peek: tool({
        description: "Look at everything it is given",
        inputSchema: noInput,
        execute: async (input, options) => {
          seen.peek = everything({ input, options });
          seen.peekSecrets = Object.keys((options as { context?: { secrets?: object } }).context?.secrets ?? {});
          return { looked: true };
        },
      }),
    },
  }),
  tools: {},
};

async function lwir(): Promise<Record<string, unknown>> {
  const caps = await snapshotDefinition(workflow.definition);
  return {
    apiVersion: LWIR_API_VERSION,
    kind: LWIR_KIND,
    metadata: { name: workflow.definition.id, version: "0.1.0", description: "scoped secrets" },
    input: { schema: caps.inputSchema },
    output: { schema: caps.outputSchema },
    permissions: { models: ["fixer"], tools: ["peek", "vault"], secrets: ["API_KEY"], network: [] },
    steps: [
      { id: "vault", uses: "tool.call", needs: [], with: { tool: "vault", input: {} }, output: { mode: "json" } },
      { id: "peek", uses: "tool.call", needs: ["vault"], with: { tool: "peek", input: {} }, output: { mode: "json" } },
      {
        id: "code",
        uses: "code.run",
        needs: ["peek"],
        with: {
          entrypoint: "leaky.js",
          files: { "leaky.js": { content: LEAKY, sha256: digestText(LEAKY) } },
          sandbox: { network: "deny", env: "allow", fs: "deny" },
          input: {},
        },
        output: { mode: "json" },
        onFailure: { fixer: { model: "fixer", maxAttempts: 1, system: "Fix the code." } },
      },
    ],
  };
}

beforeEach(() => overrideWiring({ models: { resolve: () => ({ model: fixer, offline: false }) }, workflows: catalogOf([workflow]) }));
afterEach(() => overrideWiring({}));

describe("a secret bound to one tool reaches nothing else (fetch handler, D1 secrets, run object, isolate)", () => {
  it("not the other tool, the log, SSE, the inspector or the fixer's prompt", async () => {
    const token = await tenantToken(`scoped_${crypto.randomUUID().slice(0, 8)}`);
    const put = await call("PUT", "/v1/secrets/API_KEY", { token, body: { value: KEY } });
    expect(put.status, put.text).toBe(200);
    const r = await call("POST", "/v1/lwir/runs?wait=30", { token, body: { lwir: await lwir(), input: {} } });
    const run = r.json.run as { runId: string; status: string };
    expect(run?.status, r.text).toBe("completed");

    // The tool that declares it got it; the other got no secrets and nothing holding the value.
    expect(seen.vaultHadKey).toBe(true);
    expect(seen.peekSecrets).toEqual([]);
    expect(seen.peek).toBeDefined();
    expect(seen.peek).not.toContain(KEY);

    // The log, as a page and as the SSE stream: the echo and the code's log line, redacted.
    const events = await call("GET", `/v1/runs/${run.runId}/events?limit=1000`, { token });
    expect(events.status).toBe(200);
    expect(events.text).not.toContain(KEY);
    expect(events.text).toContain("[redacted:API_KEY]");
    const sse = await exports.default.fetch(`http://little.test/v1/runs/${run.runId}/events/stream`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(sse.status).toBe(200);
    const stream = await sse.text();
    expect(stream).toContain("RunCompleted");
    expect(stream).not.toContain(KEY);

    // The inspector's page for the run, and what it reads (the run and its version).
    const page = await exports.default.fetch(`http://little.test/runs/${run.runId}`, { headers: { authorization: `Bearer ${token}` } });
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain(KEY);
    const view = await call("GET", `/v1/runs/${run.runId}`, { token });
    expect(view.text).not.toContain(KEY);

    // The fixer was asked (the code threw with the key in its message), and saw it redacted only.
    expect(fixer.doGenerateCalls.length).toBeGreaterThan(0);
    const prompts = fixer.doGenerateCalls.map((c) => `${promptText(c)}\n${JSON.stringify(c.tools ?? [])}`).join("\n");
    expect(prompts).toContain("upstream refused key [redacted:API_KEY]");
    expect(prompts).not.toContain(KEY);
  });
});
