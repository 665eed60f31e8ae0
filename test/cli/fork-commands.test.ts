/**
 * `little restart`, `little fork` and `little compare`, run as a user runs them (a child process)
 * against a small fake /v1 server that records each request and answers as the API does.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

const CLI = resolve(import.meta.dirname, "../../src/cli/little.ts");
type Recorded = { method: string; url: string; headers: IncomingMessage["headers"]; body: unknown };

let server: Server;
let baseUrl: string;
let dir: string;
let requests: Recorded[] = [];

const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15, costUsd: null };
const plan = {
  sourceRunId: "run_src",
  versionId: "wfver_0123456789abcdef",
  steps: [
    { stepId: "a", uses: "ai.generate", action: "reuse", sourceSeq: 7, sourceUsage: usage },
    { stepId: "b", uses: "tool.call", action: "rerun", reason: "changed", sourceUsage: usage },
  ],
  estimate: usage,
  sideEffects: [{ stepId: "b", tool: "notify" }],
};
const run = (runId: string) => ({ runId, status: "running", workflowId: "wf", eventCount: 3, createdAt: 1_700_000_000_000 });
const links = (runId: string) => ({ self: `${baseUrl}/v1/runs/${runId}`, events: "", stream: "" });
const side = { status: "succeeded", durationMs: 120, usage };

function answer(r: Recorded): { status: number; body: unknown } {
  if (r.url.startsWith("/v1/runs/run_src/restart")) return { status: 202, body: { run: run("run_new"), links: links("run_new"), plan } };
  if (r.url.startsWith("/v1/runs/run_src/fork?") && r.url.includes("dryRun=true")) return { status: 200, body: { plan } };
  if (r.url.startsWith("/v1/runs/run_src/fork")) return { status: 202, body: { run: run("run_fork"), links: links("run_fork"), plan } };
  if (r.url === "/v1/runs/run_src/compare/run_fork")
    return {
      status: 200,
      body: {
        a: { runId: "run_src", status: "completed", versionId: null, usage },
        b: { runId: "run_fork", status: "completed", versionId: null, usage, forkOf: "run_src" },
        steps: [
          {
            stepId: "a",
            uses: "ai.generate",
            a: side,
            b: { ...side, reused: { runId: "run_src", seq: 7 } },
            changed: false,
            diff: [],
            diffOmitted: 0,
          },
          { stepId: "b", uses: "tool.call", a: side, b: side, changed: true, diff: [{ path: "$.ok", a: true, b: false }], diffOmitted: 0 },
        ],
      },
    };
  return { status: 404, body: { error: { code: "run_not_found", message: "No run" } } };
}

function little(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { ...process.env, LITTLE_URL: baseUrl, LITTLE_TOKEN: "t", NO_COLOR: "1" }, timeout: 20_000 },
      (error, stdout, stderr) => done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "little-fork-cli-"));
  server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk) => {
      text += chunk;
    });
    req.on("end", () => {
      const recorded = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: text ? JSON.parse(text) : undefined };
      requests.push(recorded);
      const { status, body } = answer(recorded);
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  requests = [];
});

describe("little restart | fork | compare", () => {
  it("restart POSTs fromStep and the idempotency key, and prints the new run and the plan", async () => {
    const r = await little(["restart", "run_src", "--from", "b", "--idempotency-key", "k1"]);
    expect(r.code, r.stderr).toBe(0);
    expect(requests[0]).toMatchObject({ method: "POST", url: "/v1/runs/run_src/restart", body: { fromStep: "b" } });
    expect(requests[0]?.headers["idempotency-key"]).toBe("k1");
    expect(r.stdout).toContain("run_new");
    expect(r.stdout).toMatch(/a\s+ai\.generate\s+reuse \(seq 7\)/);
    expect(r.stdout).toMatch(/b\s+tool\.call\s+re-run \(changed\)/);
    expect(r.stdout).toContain("side effects again: b (notify)");
  });

  it("fork sends models, step edits from files and the input; --dry-run asks for the plan only", async () => {
    await writeFile(join(dir, "with.json"), JSON.stringify({ prompt: "Shorter, please." }));
    const r = await little([
      "fork",
      "run_src",
      "--model",
      "gpt-5=anthropic:claude-sonnet-4-5",
      "--step",
      `b=@${join(dir, "with.json")}`,
      "--input",
      '{"ticketId":"T-2"}',
      "--dry-run",
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(requests[0]).toMatchObject({
      method: "POST",
      body: {
        models: { "gpt-5": "anthropic:claude-sonnet-4-5" },
        steps: { b: { with: { prompt: "Shorter, please." } } },
        input: { ticketId: "T-2" },
      },
    });
    expect(requests[0]?.url).toContain("dryRun=true");
    expect(r.stdout).toContain("dry run: nothing started");
    const json = await little(["fork", "run_src", "--json"]);
    expect(JSON.parse(json.stdout)).toMatchObject({ run: { runId: "run_fork" }, plan: { sourceRunId: "run_src" } });
  });

  it("fork refuses a --model or --step without key=value (usage, exit 2), sending nothing", async () => {
    const r = await little(["fork", "run_src", "--model", "nonsense"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--model takes key=value");
    expect(requests).toEqual([]);
  });

  it("compare prints each step side by side with the diff of changed outputs", async () => {
    const r = await little(["compare", "run_src", "run_fork"]);
    expect(r.code, r.stderr).toBe(0);
    expect(requests[0]).toMatchObject({ method: "GET", url: "/v1/runs/run_src/compare/run_fork" });
    expect(r.stdout).toMatch(/a\s+succeeded 120ms 15t\s+reused 120ms 15t\s+same/);
    expect(r.stdout).toContain("$.ok: true → false");
  });

  it("a refusal is the server's error, exit 3", async () => {
    const r = await little(["compare", "run_src", "run_nope"]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("run_not_found");
  });
});
