import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * `little queues <workflow>` and a queued run in `little runs`, run as a user runs them against a
 * small fake of the two routes (GET /v1/workflows/{id}/queues, GET /v1/runs).
 */

const CLI = resolve(import.meta.dirname, "../../src/cli/little.ts");
let server: Server;
let baseUrl = "";
const asked: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    asked.push(`${req.method} ${req.url}`);
    res.setHeader("content-type", "application/json");
    if (req.url === "/v1/workflows/support.reply-draft/queues") {
      res.end(
        JSON.stringify({
          queues: [
            { kind: "concurrency", index: 0, key: "c-42", limit: 2, running: 2, queued: 5, updatedAt: 1_764_633_600_000 },
            { kind: "throttle", index: 0, key: "*", limit: 10, periodMs: 1_000, running: 3, queued: 0, updatedAt: 1_764_633_600_000 },
          ],
        }),
      );
    } else if (req.url?.startsWith("/v1/runs?")) {
      res.end(
        JSON.stringify({
          runs: [
            {
              runId: "run_q1",
              workflowId: "support.reply-draft",
              status: "waiting",
              waitReason: "concurrency",
              triggerKind: "http",
              versionId: null,
              causeCode: null,
              createdAt: 1_764_633_600_000,
              updatedAt: 1_764_633_600_000,
              queue: { kind: "concurrency", gate: 0, key: "c-42", position: 3 },
            },
          ],
          nextCursor: null,
        }),
      );
    } else {
      res.statusCode = 404;
      res.end(JSON.stringify({ error: { code: "workflow_not_found", message: "No workflow" } }));
    }
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

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

describe("little queues and queued runs", () => {
  it("lists a workflow's keys with their running and queued counts", async () => {
    const r = await little(["queues", "support.reply-draft"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/concurrency\[0\] 2\s+c-42\s+2\s+5/);
    expect(r.stdout).toMatch(/throttle 10\/1000ms\s+\*\s+3\s+0/);
    expect(asked).toContain("GET /v1/workflows/support.reply-draft/queues");
    const json = await little(["queues", "support.reply-draft", "--json"]);
    expect(JSON.parse(json.stdout).queues).toHaveLength(2);
  });

  it("shows a queued run's key and position in `little runs --wait-reason concurrency`", async () => {
    const r = await little(["runs", "--wait-reason", "concurrency"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("waiting (concurrency c-42 #3)");
    expect(asked.some((a) => a.startsWith("GET /v1/runs?") && a.includes("waitReason=concurrency"))).toBe(true);
  });

  it("exits 2 on usage errors and 1-3 on a missing workflow", async () => {
    expect((await little(["queues"])).code).toBe(2);
    expect((await little(["queues", "nope"])).code).not.toBe(0);
  });
});
