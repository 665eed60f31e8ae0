import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

/**
 * `little delete` and `little bulk`, run as a user runs them (a child process) against a fake /v1
 * server that answers the HTTP contract and records each request (the real path is
 * test/api/run-deletion.test.ts and test/durable-objects/bulk-job.test.ts).
 */
const CLI = resolve(import.meta.dirname, "../../src/cli/little.ts");
type Seen = { method: string; url: string; body: string; auth: string | undefined };
let seen: Seen[] = [];
let server: Server;
let baseUrl = "";

const JOB = { jobId: "bulk_0123456789abcdef01234567", action: "delete", filter: {}, dryRun: false, failures: [], createdAt: 1 };

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString();
    });
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", body, auth: req.headers.authorization });
      const reply = (status: number, json: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(json));
      };
      if (req.method === "DELETE" && req.url?.startsWith("/v1/runs/run_gone"))
        return reply(410, { error: { code: "run_deleted", message: 'Run "run_gone" was deleted' } });
      if (req.method === "DELETE" && req.url?.startsWith("/v1/runs/"))
        return reply(200, { deleted: { runId: "run_1", workflowId: "wf.a", deletedAt: "2026-12-02T03:00:00.000Z", by: "tok_x" } });
      if (req.method === "POST" && req.url === "/v1/runs/bulk")
        return reply(202, { job: { ...JOB, ...JSON.parse(body), state: "running", matched: 0, done: 0, failed: 0 } });
      if (req.method === "GET" && req.url === `/v1/runs/bulk/${JOB.jobId}`)
        return reply(200, {
          job: {
            ...JOB,
            state: "done",
            matched: 3,
            done: 2,
            failed: 1,
            failures: [{ runId: "run_3", code: "run_active", message: "not ended" }],
          },
        });
      reply(404, { error: { code: "not_found", message: "no route" } });
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));
beforeEach(() => {
  seen = [];
});

function little(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, LITTLE_URL: baseUrl, LITTLE_TOKEN: "test-token" };
  return new Promise((done) => {
    execFile(process.execPath, [CLI, ...args], { env, timeout: 20_000 }, (error, stdout, stderr) =>
      done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("little delete", () => {
  it("DELETEs the run with the bearer token, --cancel as ?cancel=true, and prints what was deleted", async () => {
    const r = await little(["delete", "run_1", "--cancel"]);
    expect(r.code, r.stderr).toBe(0);
    expect(seen).toMatchObject([{ method: "DELETE", url: "/v1/runs/run_1?cancel=true", auth: "Bearer test-token" }]);
    expect(r.stdout).toContain("deleted run_1 (wf.a)");
  });

  it("a deleted run is the server's 410 as an error, exit 3", async () => {
    const r = await little(["delete", "run_gone", "--json"]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("run_deleted");
  });
});

describe("little bulk", () => {
  it("starts a job with the filter from the flags and prints its id", async () => {
    const r = await little(["bulk", "delete", "--workflow", "wf.a", "--status", "failed", "--created-before", "2026-11-01", "--dry-run"]);
    expect(r.code, r.stderr).toBe(0);
    expect(seen[0]?.method).toBe("POST");
    expect(JSON.parse(seen[0]?.body ?? "{}")).toEqual({
      action: "delete",
      filter: { workflowId: "wf.a", status: "failed", createdBefore: "2026-11-01" },
      dryRun: true,
    });
    expect(r.stdout).toContain(`${JOB.jobId}  delete (dry run)  running`);
  });

  it("status prints the counts and each failure's cause; a missing job id is a usage error", async () => {
    const r = await little(["bulk", "status", JOB.jobId]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("matched 3  done 2  failed 1");
    expect(r.stdout).toContain("run_3: run_active not ended");
    expect((await little(["bulk", "status"])).code).toBe(2);
  });
});
