/**
 * Issue 24, hole 1: a warm code.run isolate used to be keyed by the code alone, so tenant B's run
 * of the same file (same sha256) saw what tenant A's run had left in module scope. Now a warm
 * isolate serves one run of one tenant only. Through the real path: the Worker's fetch handler,
 * `POST /v1/lwir/runs`, the run object and a Worker Loader isolate.
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

const workflow: RegisteredWorkflow = {
  definition: defineWorkflow({
    id: "security.warm-isolate-state",
    description: "Run code that remembers what it saw.",
    input: z.object({ marker: z.string() }),
    output: { mode: "json" },
    models: [model(openai("gpt-4o-mini"), { description: "Unused." })],
    planner: { model: openai("gpt-5"), system: "Unused: the LWIR is given." },
  }),
  tools: {},
};

// Keeps every input it was called with in module scope and on globalThis, and answers both.
const RECORDER = `const seen = [];
export function run({ input }) {
  seen.push(input.marker);
  globalThis.__markers = [...(globalThis.__markers ?? []), input.marker];
  return { module: [...seen], global: [...globalThis.__markers] };
}
`;

async function lwir(): Promise<Record<string, unknown>> {
  const caps = await snapshotDefinition(workflow.definition);
  return {
    apiVersion: LWIR_API_VERSION,
    kind: LWIR_KIND,
    metadata: { name: workflow.definition.id, version: "0.1.0", description: "record inputs in module state" },
    input: { schema: caps.inputSchema },
    output: { schema: caps.outputSchema },
    permissions: { models: [], tools: [], secrets: [], network: [] },
    steps: [
      {
        id: "record",
        uses: "code.run",
        needs: [],
        with: {
          entrypoint: "recorder.js",
          files: { "recorder.js": { content: RECORDER, sha256: digestText(RECORDER) } },
          sandbox: { network: "deny", env: "deny", fs: "deny" },
          input: { marker: "{{ input.marker }}" },
        },
        output: { mode: "json" },
      },
    ],
  };
}

beforeEach(() => overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {} }), workflows: catalogOf([workflow]) }));
afterEach(() => overrideWiring({}));

async function recorded(token: string, marker: string): Promise<{ module: string[]; global: string[] }> {
  const r = await call("POST", "/v1/lwir/runs?wait=20", { token, body: { lwir: await lwir(), input: { marker } } });
  const view = r.json.run as { status: string; output?: { module: string[]; global: string[] } };
  expect(view?.status, r.text).toBe("completed");
  return view.output as { module: string[]; global: string[] };
}

describe("warm code.run isolates share nothing across tenants or runs (fetch handler, run object, Worker Loader)", () => {
  it("two tenants, and two runs of one tenant, running the same file each see only their own input", async () => {
    const suffix = crypto.randomUUID().slice(0, 8);
    const a = await tenantToken(`warm_a_${suffix}`);
    const b = await tenantToken(`warm_b_${suffix}`);
    const own = (marker: string) => ({ module: [marker], global: [marker] });
    expect(await recorded(a, "tenant-a-run-1")).toEqual(own("tenant-a-run-1"));
    expect(await recorded(b, "tenant-b-run-1")).toEqual(own("tenant-b-run-1"));
    expect(await recorded(a, "tenant-a-run-2")).toEqual(own("tenant-a-run-2"));
    // Concurrent runs of both tenants at once.
    const together = await Promise.all([recorded(a, "a-concurrent"), recorded(b, "b-concurrent"), recorded(a, "a-concurrent-2")]);
    expect(together).toEqual([own("a-concurrent"), own("b-concurrent"), own("a-concurrent-2")]);
  });
});
