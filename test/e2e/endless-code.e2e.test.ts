/**
 * Issue 15, item 11, against a real `wrangler dev`: a code.run step with `while (true) {}` used to
 * freeze the whole local Worker for good (workerd enforces no CPU limit locally and runs every
 * isolate on one thread). With the loop guard the run fails with `code_timeout` after the step's
 * `cpuMs`, a health check sent meanwhile is answered once the guard stops the code, and the next
 * run completes on the same process.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, SEED_WORKFLOW } from "./support/api.ts";
import { startWranglerDev, type WranglerDev } from "./support/wrangler-dev.ts";

let dev: WranglerDev;

beforeAll(async () => {
  dev = await startWranglerDev();
});
afterAll(async () => {
  await dev?.dispose();
});

const seedLwir = JSON.parse(readFileSync(resolve(import.meta.dirname, "../fixtures/lwir/seed-summarize-ticket.json"), "utf8"));
const INPUT = { ticketId: "T-1", transcript: "t" };

describe("an endless code.run under wrangler dev", () => {
  it("fails its run with code_timeout; the Worker answers meanwhile-sent requests and completes the next run", async () => {
    const api = client(dev.url, dev.devToken);
    const workflows = (await api.call("GET", "/v1/workflows")).json.workflows as {
      id: string;
      inputSchema: unknown;
      requestedOutput: { schema: unknown };
    }[];
    const seed = workflows.find((w) => w.id === SEED_WORKFLOW);
    if (!seed) throw new Error(`${SEED_WORKFLOW} is not registered`);
    const lwirFor = (code: string) => ({
      ...seedLwir,
      input: { schema: seed.inputSchema },
      output: { schema: seed.requestedOutput.schema },
      steps: [
        {
          id: "compute",
          uses: "code.run",
          needs: [],
          retry: { maxAttempts: 1 },
          with: {
            entrypoint: "main.js",
            files: { "main.js": { content: code, sha256: `sha256:${createHash("sha256").update(code).digest("hex")}` } },
            sandbox: { network: "deny", env: "deny", fs: "deny" },
            limits: { cpuMs: 1_000, wallMs: 20_000 },
          },
          output: { mode: "object", schema: seed.requestedOutput.schema },
        },
      ],
      permissions: { models: [], tools: [], secrets: [], network: [] },
    });

    const started = Date.now();
    const stuck = api.call("POST", "/v1/lwir/runs?wait=30", {
      body: { lwir: lwirFor("export function run() { while (true) {} }"), input: INPUT },
    });
    await new Promise((r) => setTimeout(r, 300));
    const health = await fetch(`${dev.url}/v1/health`, { signal: AbortSignal.timeout(15_000) });
    expect(health.status).toBe(200);
    const failed = await stuck;
    expect(failed.status, failed.text.slice(0, 300)).toBe(200);
    expect(failed.json.run).toMatchObject({ status: "failed", cause: { code: "step_failed", details: { code: "code_timeout" } } });
    expect(Date.now() - started).toBeLessThan(15_000);

    const ok = await api.call("POST", "/v1/lwir/runs?wait=30", {
      body: {
        lwir: lwirFor("export function run({ input }) { return { severity: 'low', summary: 'ok ' + input.ticketId }; }"),
        input: INPUT,
      },
    });
    expect(ok.json.run).toMatchObject({ status: "completed", output: { severity: "low", summary: "ok T-1" } });
  });
});
