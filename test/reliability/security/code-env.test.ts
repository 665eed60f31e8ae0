/**
 * Issue 18, "hashed but inert": `sandbox.env: "allow"` on a code.run step used to change nothing
 * (and in the container sandbox it would have passed the container's whole environment). Now code
 * gets exactly the secrets the definition's `sandbox.env` names and the version permits, as
 * `run({ input, env })`; with `env: "deny"` it gets no `env` at all. Through the real path: the
 * Worker's fetch handler, the run object, D1 secrets and a Worker Loader isolate.
 */
import { openai } from "@ai-sdk/openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { EnvModelResolver } from "../../../src/adapters/models/env-model-resolver.ts";
import { catalogOf, type RegisteredWorkflow } from "../../../src/engine/run-environment.ts";
import { snapshotDefinition } from "../../../src/identity/definition-snapshot.ts";
import { digestText } from "../../../src/json/digest.ts";
import { LWIR_API_VERSION, LWIR_KIND } from "../../../src/lwir/types.ts";
import { defineWorkflow } from "../../../src/sdk/define-workflow.ts";
import { model } from "../../../src/sdk/model.ts";
import { overrideWiring } from "../../../src/wiring.ts";
import { call, tenantToken } from "../../api/support/api-call.ts";

const API_KEY = "sk-code-canary-5d1e0f7a93";
const OTHER = "other-canary-c41b2e88";

const workflow: RegisteredWorkflow = {
  definition: defineWorkflow({
    id: "secrets.code-env",
    description: "Run code that calls an API with a key.",
    input: z.object({}),
    output: { mode: "json" },
    models: [model(openai("gpt-4o-mini"), { description: "Unused." })],
    planner: { model: openai("gpt-5"), system: "Unused: the LWIR is given." },
    secrets: ["API_KEY", "OTHER"],
    sandbox: { env: ["API_KEY"] },
  }),
  tools: {},
};

// Reports what it was given, and echoes the key in its output (which must reach the log redacted).
const PROBE = `export function run(arg) {
  const env = arg.env;
  console.log("key is " + (env ? env.API_KEY : "none"));
  return { hasEnv: "env" in arg, keys: env ? Object.keys(env).sort() : [], keyLength: env && env.API_KEY ? env.API_KEY.length : 0, echoed: env ? env.API_KEY ?? null : null };
}
`;

async function lwirOf(env: "allow" | "deny", permitted: string[]): Promise<Record<string, unknown>> {
  const caps = await snapshotDefinition(workflow.definition);
  return {
    apiVersion: LWIR_API_VERSION,
    kind: LWIR_KIND,
    metadata: { name: workflow.definition.id, version: "0.1.0", description: "probe the code's env" },
    input: { schema: caps.inputSchema },
    output: { schema: caps.outputSchema },
    permissions: { models: [], tools: [], secrets: permitted, network: [] },
    steps: [
      {
        id: "probe",
        uses: "code.run",
        needs: [],
        with: {
          entrypoint: "probe.js",
          files: { "probe.js": { content: PROBE, sha256: digestText(PROBE) } },
          sandbox: { network: "deny", env, fs: "deny" },
          input: {},
        },
        output: { mode: "json" },
      },
    ],
  };
}

beforeEach(() => overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {} }), workflows: catalogOf([workflow]) }));
afterEach(() => overrideWiring({}));

async function tenantWithSecrets(): Promise<string> {
  const token = await tenantToken(`codeenv_${crypto.randomUUID().slice(0, 8)}`);
  for (const [name, value] of [
    ["API_KEY", API_KEY],
    ["OTHER", OTHER],
  ]) {
    const put = await call("PUT", `/v1/secrets/${name}`, { token, body: { value } });
    expect(put.status, put.text).toBe(200);
  }
  return token;
}

async function run(token: string, lwir: Record<string, unknown>) {
  const r = await call("POST", "/v1/lwir/runs?wait=20", { token, body: { lwir, input: {} } });
  const view = r.json.run as { runId: string; status: string; output?: Record<string, unknown> };
  expect(view.status, r.text).toBe("completed");
  const events = await call("GET", `/v1/runs/${view.runId}/events?limit=1000`, { token });
  expect(events.status, events.text).toBe(200);
  return { output: view.output ?? {}, log: events.text };
}

describe('sandbox.env: "allow" passes only declared, permitted secrets (run object, isolate, D1 secrets)', () => {
  it("code gets the secrets sandbox.env names and the version permits, and the log never holds their values", async () => {
    const token = await tenantWithSecrets();
    const { output, log } = await run(token, await lwirOf("allow", ["API_KEY", "OTHER"]));
    // OTHER is permitted but not named by sandbox.env: tools may have it, code may not.
    expect(output).toMatchObject({ hasEnv: true, keys: ["API_KEY"], keyLength: API_KEY.length });
    expect(output.echoed).toBe("[redacted:API_KEY]");
    expect(log).not.toContain(API_KEY);
    expect(log).not.toContain(OTHER);
  });

  it("a declared secret the version does not permit is not given; env: deny gives no env at all", async () => {
    const token = await tenantWithSecrets();
    const unpermitted = await run(token, await lwirOf("allow", ["OTHER"]));
    expect(unpermitted.output).toMatchObject({ hasEnv: true, keys: [], keyLength: 0 });
    const denied = await run(token, await lwirOf("deny", ["API_KEY", "OTHER"]));
    expect(denied.output).toMatchObject({ hasEnv: false, keys: [], keyLength: 0, echoed: null });
  });
});
