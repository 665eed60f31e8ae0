import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../../src/adapters/models/env-model-resolver.ts";
import { digestText } from "../../../src/json/digest.ts";
import { overrideWiring } from "../../../src/wiring.ts";
import { api } from "./support/api-call.ts";
import { liveSeed } from "./support/seed-lwir.ts";

// Issue 15, item 11, through the real path: the Worker's fetch handler, the run object and the
// isolate sandbox wired as `wrangler dev` wires them. Before the loop guard a code.run step with
// `while (true) {}` froze local workerd for good (no CPU limit locally, one thread for every
// isolate): this file would never have finished. Now the run fails with `code_timeout` and the
// same Worker serves the next run.

beforeEach(() => overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {} }) }));
afterEach(() => overrideWiring({}));

async function codeRunLwir(code: string) {
  const seed = await liveSeed();
  return {
    ...seed.lwir,
    steps: [
      {
        id: "compute",
        uses: "code.run",
        needs: [],
        retry: { maxAttempts: 1 },
        with: {
          entrypoint: "main.js",
          files: { "main.js": { content: code, sha256: digestText(code) } },
          sandbox: { network: "deny", env: "deny", fs: "deny" },
          limits: { cpuMs: 300, wallMs: 20_000 },
        },
        output: { mode: "object", schema: seed.requestedOutput.schema },
      },
    ],
    permissions: { models: [], tools: [], secrets: [], network: [] },
  };
}

const INPUT = { ticketId: "T-1", transcript: "t" };

describe("an endless code.run in the local Worker (issue 15, item 11)", () => {
  it("fails the run (step_failed, code_timeout) within seconds, and the same Worker then completes a normal run", async () => {
    const started = Date.now();
    const stuck = await api("POST", "/v1/lwir/runs?wait=30", {
      body: JSON.stringify({ lwir: await codeRunLwir("export function run() { while (true) {} }"), input: INPUT }),
    });
    expect(stuck.status, stuck.text.slice(0, 300)).toBe(200);
    const run = stuck.json.run as { status: string; cause?: { code: string; message: string; details?: unknown } };
    expect(run.status).toBe("failed");
    // A failed step fails the run as `step_failed`, naming the step's own code in the details.
    expect(run.cause?.code).toBe("step_failed");
    expect(run.cause?.details).toMatchObject({ code: "code_timeout", stepPath: "c1/compute" });
    expect(run.cause?.message).toMatch(/CPU guard/);
    expect(Date.now() - started).toBeLessThan(15_000);

    const healthy = await api("POST", "/v1/lwir/runs?wait=30", {
      body: JSON.stringify({
        lwir: await codeRunLwir("export function run({ input }) { return { severity: 'low', summary: 'ok ' + input.ticketId }; }"),
        input: INPUT,
      }),
    });
    expect(healthy.status, healthy.text.slice(0, 300)).toBe(200);
    expect(healthy.json.run).toMatchObject({ status: "completed", output: { severity: "low", summary: "ok T-1" } });
    expect((await api("GET", "/v1/health")).status).toBe(200);
  });
});
