import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** `little signal`, run as a user runs it, against a fake /v1 server that records the request. */

const CLI = resolve(import.meta.dirname, "../../src/cli/little.ts");
let server: Server;
let baseUrl = "";
let dir = "";
const seen: { path: string; auth?: string; body: unknown }[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "little-signal-"));
  server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk) => {
      text += chunk;
    });
    req.on("end", () => {
      const body = JSON.parse(text || "null") as { name: string; payload: unknown; id?: string };
      seen.push({ path: req.url ?? "", auth: req.headers.authorization, body });
      res.setHeader("content-type", "application/json");
      if (body.name === "nope") {
        res.statusCode = 422;
        res.end(JSON.stringify({ error: { code: "signal_unknown", message: 'No signal "nope"; it declares "manager.decision"' } }));
        return;
      }
      res.statusCode = 202;
      const signal = { id: body.id ?? "sig_generated", name: body.name, receivedAt: "2026-12-01T00:00:00.000Z", consumed: false };
      res.end(JSON.stringify({ signal, created: true }));
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.close();
  await rm(dir, { recursive: true, force: true });
});

function little(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { ...process.env, LITTLE_URL: baseUrl, LITTLE_TOKEN: "t0k" }, timeout: 20_000 },
      (error, stdout, stderr) => done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("little signal", () => {
  it("POSTs { name, payload, id } from --payload @file to /v1/runs/:id/signals with the token, and prints the signal", async () => {
    const file = join(dir, "decision.json");
    await writeFile(file, JSON.stringify({ approved: true, note: "ok" }));
    const r = await little(["signal", "run_1", "manager.decision", "--payload", `@${file}`, "--id", "d-1"]);
    expect(r.code, r.stderr).toBe(0);
    expect(seen.at(-1)).toEqual({
      path: "/v1/runs/run_1/signals",
      auth: "Bearer t0k",
      body: { name: "manager.decision", payload: { approved: true, note: "ok" }, id: "d-1" },
    });
    expect(r.stdout).toContain("manager.decision d-1: buffered");
  });

  it("sends {} without --payload; --json prints the answer; a refusal is the server's code (exit 3)", async () => {
    const json = await little(["signal", "run_1", "manager.decision", "--json"]);
    expect(json.code).toBe(0);
    expect(seen.at(-1)?.body).toEqual({ name: "manager.decision", payload: {} });
    expect(JSON.parse(json.stdout)).toMatchObject({ created: true, signal: { id: "sig_generated" } });
    const refused = await little(["signal", "run_1", "nope", "--payload", "{}"]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain("signal_unknown");
  });

  it("needs the run id and the name", async () => {
    expect((await little(["signal", "run_1"])).code).toBe(2);
  });
});
