/**
 * The `little` CLI as a user runs it, against a real `wrangler dev`: start and wait, list, events
 * (paged and followed live), versions, cancel, token create, and an error from the server.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INPUT, SEED_WORKFLOW } from "./support/api.ts";
import { startWranglerDev, type WranglerDev } from "./support/wrangler-dev.ts";

const CLI = resolve(import.meta.dirname, "../../src/cli/little.ts");
let dev: WranglerDev;
let dir: string;

type Result = { code: number; stdout: string; stderr: string };

function little(args: string[], env: Record<string, string> = {}): Promise<Result> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { ...process.env, LITTLE_URL: dev.url, LITTLE_TOKEN: dev.devToken, NO_COLOR: "1", ...env }, maxBuffer: 8 * 1024 * 1024 },
      (error, stdout, stderr) => done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  dev = await startWranglerDev({ offlineLatencyMs: 100 });
  dir = await mkdtemp(join(tmpdir(), "little-cli-e2e-"));
});
afterAll(async () => {
  await dev?.dispose();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("little against a real Worker", () => {
  it("runs the seed example with --wait, then lists it, prints its events and its version", async () => {
    await writeFile(join(dir, "input.json"), JSON.stringify(INPUT));
    const run = await little([
      "run",
      SEED_WORKFLOW,
      "--input",
      `@${join(dir, "input.json")}`,
      "--run-id",
      "run_cli_e2e",
      "--wait",
      "30",
      "--json",
    ]);
    expect(run.code, run.stderr).toBe(0);
    const started = JSON.parse(run.stdout) as { run: { runId: string; status: string; versionId: string } };
    expect(started.run).toMatchObject({ runId: "run_cli_e2e", status: "completed", versionId: expect.stringMatching(/^wfver_/) });

    const runs = await little(["runs", "--status", "completed"]);
    expect(runs.code, runs.stderr).toBe(0);
    expect(runs.stdout).toMatch(/RUN ID\s+WORKFLOW\s+STATUS/);
    expect(runs.stdout).toMatch(/run_cli_e2e\s+support\.summarize-ticket\s+completed/);

    const events = await little(["events", "run_cli_e2e", "--json"]);
    expect(events.code, events.stderr).toBe(0);
    const lines = events.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { seq: number; type: string });
    expect(lines.map((e) => e.seq)).toEqual(lines.map((_, i) => i + 1));
    expect(lines[0]?.type).toBe("RunRequested");
    expect(lines.at(-1)?.type).toBe("RunCompleted");

    const human = await little(["events", "run_cli_e2e", "--type", "harness.model.*"]);
    expect(
      human.stdout
        .trim()
        .split("\n")
        .every((l) => /harness\.model\.(called|responded)/.test(l)),
    ).toBe(true);

    const version = await little(["versions", started.run.versionId]);
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout).toContain(started.run.versionId);
    expect(version.stdout).toMatch(/generate\s+ai\.generate/);
  });

  it("follows a running run's events live to the end", async () => {
    const run = await little(["run", SEED_WORKFLOW, "--input", JSON.stringify(INPUT), "--run-id", "run_cli_follow", "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const followed = await little(["events", "run_cli_follow", "--follow", "--json"]);
    expect(followed.code, followed.stderr).toBe(0);
    const types = followed.stdout
      .trim()
      .split("\n")
      .map((l) => (JSON.parse(l) as { type: string }).type);
    expect(types[0]).toBe("RunRequested");
    expect(types.at(-1)).toBe("RunCompleted");
  });

  it("cancels a run, creates a tenant token, and reports a server error with exit 3", async () => {
    await little(["run", SEED_WORKFLOW, "--input", JSON.stringify(INPUT), "--run-id", "run_cli_cancel"]);
    const cancelled = await little(["cancel", "run_cli_cancel", "--json"]);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(["cancelled", "completed"]).toContain((JSON.parse(cancelled.stdout) as { run: { status: string } }).run.status);

    const token = await little(["token", "create", "--tenant", "acme", "--json"], { LITTLE_ADMIN_TOKEN: dev.adminToken });
    expect(token.code, token.stderr).toBe(0);
    const created = JSON.parse(token.stdout) as { token: string; tenant: string };
    expect(created.tenant).toBe("acme");
    const asAcme = await little(["runs", "--json"], { LITTLE_TOKEN: created.token });
    expect((JSON.parse(asAcme.stdout) as { runs: unknown[] }).runs).toEqual([]);

    const missing = await little(["events", "run_nope"]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain("run_not_found");
    expect(missing.stderr).not.toMatch(/\n\s+at /);
  });
});
