import { env } from "cloudflare:workers";
import { openai } from "@ai-sdk/openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { sweepRetention } from "../../src/engine/deletion/retention-sweep.ts";
import { VERSION_GRACE_MS } from "../../src/engine/deletion/unused-versions.ts";
import { catalogOf, type RegisteredWorkflow } from "../../src/engine/run-environment.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";
import { tool } from "../../src/sdk/tool.ts";
import { overrideWiring, wire } from "../../src/wiring.ts";
import { stepsLwir } from "../support/wait-lwir.ts";
import { call, tenantToken } from "./support/api-call.ts";

/**
 * Versions of deleted runs (docs/runs.md, "Versions of deleted runs"), through the real path: a
 * run's DELETE deletes its version (row and compiler locks) when nothing references it any more
 * and no run registered it within the grace period; another run using it (any tenant) keeps it;
 * the cron's sweep deletes what a deletion had to keep for the grace period; and a run locking a
 * deleted version re-creates it.
 */
const text = z.object({ text: z.string() });
const echo: RegisteredWorkflow = {
  definition: defineWorkflow({
    id: "test.version-gc",
    description: "Echo the text.",
    input: text,
    output: z.looseObject({}),
    models: [model(openai("gpt-4o-mini"), { description: "Unused." })],
    planner: { model: openai("gpt-5"), system: "Plan an echo." },
    tools: {
      echo: tool({
        description: "Echo a text",
        inputSchema: text,
        outputSchema: text,
        execute: async ({ text: t }: { text: string }) => ({ text: t }),
      }),
    },
  }),
  tools: {},
};
const OFFLINE = new EnvModelResolver({ mode: "offline", secrets: {} });
/** How far the Worker's clock is ahead of the real one. Moved without rebuilding the wiring, so what an isolate remembers stays. */
let ahead = 0;
/** The Worker's clock moved past the grace period (the runs so far registered on the real one). */
const afterGrace = () => {
  ahead = 2 * VERSION_GRACE_MS;
};

beforeEach(() => {
  ahead = 0;
  overrideWiring({ models: OFFLINE, workflows: catalogOf([echo]), clock: { now: () => Date.now() + ahead } });
});
afterEach(() => overrideWiring({}));

/** A one-step LWIR of its own: each test's version is its own. */
async function lwirOf(label: string) {
  const lwir = await stepsLwir(echo, [
    { id: "say", uses: "tool.call", with: { tool: "echo", input: { text: label } }, output: { mode: "json" } },
  ]);
  return { ...lwir, permissions: { models: [], tools: ["echo"], secrets: [], network: [] } };
}

async function ranOn(lwir: unknown, token?: string): Promise<{ runId: string; versionId: string }> {
  const r = await call("POST", "/v1/lwir/runs?wait=20", { body: { lwir, input: { text: "hi" } }, ...(token ? { token } : {}) });
  expect(r.status, r.text).toBe(200);
  const run = r.json.run as { runId: string; status: string; versionId: string };
  expect(run.status).toBe("completed");
  return { runId: run.runId, versionId: run.versionId };
}

async function stored(versionId: string): Promise<{ versions: number; locks: number }> {
  const count = async (sql: string) => Number(await env.DB.prepare(sql).bind(versionId).first("n"));
  return {
    versions: await count("SELECT COUNT(*) AS n FROM workflow_versions WHERE id = ?"),
    locks: await count("SELECT COUNT(*) AS n FROM compiler_locks WHERE version_id = ?"),
  };
}

async function remove(runId: string, token?: string): Promise<void> {
  const r = await call("DELETE", `/v1/runs/${runId}`, token ? { token } : {});
  expect(r.status, r.text).toBe(200);
}

describe("versions of deleted runs", () => {
  it("DELETE of the last run that used a version deletes it and its locks; a run that locks it again re-creates it", async () => {
    const lwir = await lwirOf(`alone ${crypto.randomUUID()}`);
    const first = await ranOn(lwir);
    expect(await stored(first.versionId)).toEqual({ versions: 1, locks: 1 });
    afterGrace();
    await remove(first.runId);
    expect(await stored(first.versionId)).toEqual({ versions: 0, locks: 0 });
    // The same document again: the run registers the version anew (this isolate's memory of the
    // first registration has expired), and it can be read as before.
    const again = await ranOn(lwir);
    expect(again.versionId).toBe(first.versionId);
    expect(await stored(again.versionId)).toEqual({ versions: 1, locks: 1 });
    const read = await call("GET", `/v1/versions/${again.versionId}`);
    expect(read.status, read.text).toBe(200);
  });

  it("is kept while another run uses it, in any tenant, and deleted with the last one", async () => {
    const lwir = await lwirOf(`shared ${crypto.randomUUID()}`);
    const mine = await ranOn(lwir);
    const otherToken = await tenantToken(`t-${crypto.randomUUID().slice(0, 8)}`);
    const theirs = await ranOn(lwir, otherToken);
    const sameTenant = await ranOn(lwir);
    expect(new Set([mine.versionId, theirs.versionId, sameTenant.versionId]).size).toBe(1);
    afterGrace();
    await remove(mine.runId);
    expect(await stored(mine.versionId)).toEqual({ versions: 1, locks: 1 });
    await remove(sameTenant.runId);
    expect(await stored(mine.versionId)).toEqual({ versions: 1, locks: 1 });
    // Still readable by the run that uses it.
    expect((await call("GET", `/v1/versions/${mine.versionId}`, { token: otherToken })).status).toBe(200);
    await remove(theirs.runId, otherToken);
    expect(await stored(mine.versionId)).toEqual({ versions: 0, locks: 0 });
  });

  it("within the grace period the deletion keeps it; the cron's sweep deletes it once the period has passed", async () => {
    const run = await ranOn(await lwirOf(`grace ${crypto.randomUUID()}`));
    await remove(run.runId);
    // Registered moments ago: a run registering it now could still be about to name it.
    expect(await stored(run.versionId)).toEqual({ versions: 1, locks: 1 });
    afterGrace();
    const report = await sweepRetention(wire(env), { defaultDays: null, pageSize: 500 });
    expect(report.versionsDeleted).toBeGreaterThanOrEqual(1);
    expect(await stored(run.versionId)).toEqual({ versions: 0, locks: 0 });
  });

  it("the sweep keeps versions that runs in the index use", async () => {
    const run = await ranOn(await lwirOf(`kept ${crypto.randomUUID()}`));
    afterGrace();
    await sweepRetention(wire(env), { defaultDays: null, pageSize: 500 });
    expect(await stored(run.versionId)).toEqual({ versions: 1, locks: 1 });
  });

  it("is kept while a definition approval pins it, and swept once unpinned", async () => {
    const run = await ranOn(await lwirOf(`pinned ${crypto.randomUUID()}`));
    const hash = await env.DB.prepare("SELECT definition_hash AS h FROM runs WHERE run_id = ?").bind(run.runId).first<string>("h");
    const approved = await call("POST", `/v1/definitions/${hash}/approve`);
    expect(approved.status, approved.text).toBe(200);
    const pinned = await call("POST", `/v1/definitions/${hash}/pin`, { body: { versionId: run.versionId } });
    expect(pinned.status, pinned.text).toBe(200);
    afterGrace();
    await remove(run.runId);
    expect((await stored(run.versionId)).versions).toBe(1);
    await sweepRetention(wire(env), { defaultDays: null, pageSize: 500 });
    expect((await stored(run.versionId)).versions).toBe(1);
    expect((await call("DELETE", `/v1/definitions/${hash}/pin`)).status).toBe(200);
    await sweepRetention(wire(env), { defaultDays: null, pageSize: 500 });
    expect(await stored(run.versionId)).toEqual({ versions: 0, locks: 0 });
  });
});
