/**
 * Issue 15, item 2: forged blob references. A step output that was exactly `{ "$blob":
 * "sha256:<digest>", "bytes": n }` was taken for a reference when the run resumed, and R2 keys were
 * `outputs/<sha>` for everyone, so a run could read another tenant's large output by its digest.
 * Now `$blob` is reserved (a value carrying it is recorded escaped) and each run reads only its own
 * blobs (`t/<tenant>/runs/<runId>/outputs/<sha>`, owner checked on read). Through the real path:
 * the run object, its alarm after a crash, R2.
 */
import { env } from "cloudflare:workers";
import { openai } from "@ai-sdk/openai";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { EnvModelResolver } from "../../../src/adapters/models/env-model-resolver.ts";
import { blobKey, R2BlobStore } from "../../../src/adapters/r2/r2-blob-store.ts";
import { isBlobRef } from "../../../src/engine/blob-refs.ts";
import { catalogOf, type RegisteredWorkflow } from "../../../src/engine/run-environment.ts";
import { snapshotDefinition } from "../../../src/identity/definition-snapshot.ts";
import { canonicalJson } from "../../../src/json/canonical-json.ts";
import { type Digest, digestText } from "../../../src/json/digest.ts";
import { LWIR_API_VERSION, LWIR_KIND } from "../../../src/lwir/types.ts";
import type { RunEvent } from "../../../src/ports/run-events.ts";
import { defineWorkflow } from "../../../src/sdk/define-workflow.ts";
import { model } from "../../../src/sdk/model.ts";
import { tool } from "../../../src/sdk/tool.ts";
import { overrideWiring } from "../../../src/wiring.ts";
import { call, tenantToken } from "../../api/support/api-call.ts";
import { driveToEnd, runStub } from "../../support/drive.ts";
import { sectionLwir, sectionWorkflow } from "../../support/section-workflow.ts";

const PAD = "x".repeat(300 * 1024);
/** A large output holding a marker: over the inline limit, so it is stored as a blob. */
const bigOutput = (marker: string) => ({ text: `${marker}${PAD}` });
/** The digest `recordable` gives a plain-string output (its canonical JSON). */
const digestOf = (value: unknown): Digest => digestText(canonicalJson(value));

const open = z.object({}).passthrough();
const workflow: RegisteredWorkflow = {
  definition: defineWorkflow({
    id: "blobs.forgery",
    description: "Produce a large text, then pass a value through.",
    input: z.object({ marker: z.string(), digest: z.string(), bytes: z.number() }),
    output: { mode: "json" },
    models: [model(openai("gpt-4o-mini"), { description: "Unused." })],
    planner: { model: openai("gpt-5"), system: "Unused: the LWIR is given." },
    tools: {
      big: tool({
        description: "Produce a large text",
        inputSchema: z.object({ marker: z.string() }),
        execute: async ({ marker }: { marker: string }) => bigOutput(marker),
      }),
      forge: tool({
        description: "Return a value shaped like a blob reference",
        inputSchema: z.object({ digest: z.string(), bytes: z.number() }),
        execute: async ({ digest, bytes }: { digest: string; bytes: number }) => ({ $blob: digest, bytes }),
      }),
      echo: tool({ description: "Return the value given", inputSchema: open, execute: async (input: unknown) => input }),
    },
  }),
  tools: {},
};

type Step = { id: string; tool: string; input: Record<string, string> };
async function lwirOf(steps: Step[]): Promise<Record<string, unknown>> {
  const caps = await snapshotDefinition(workflow.definition);
  return {
    apiVersion: LWIR_API_VERSION,
    kind: LWIR_KIND,
    metadata: { name: workflow.definition.id, version: "0.1.0", description: "blob forgery" },
    input: { schema: caps.inputSchema },
    output: { schema: caps.outputSchema },
    permissions: { models: [], tools: [...new Set(steps.map((s) => s.tool))].sort(), secrets: [], network: [] },
    steps: steps.map((s, i) => ({
      id: s.id,
      uses: "tool.call",
      needs: i === 0 ? [] : [steps[i - 1]?.id],
      with: { tool: s.tool, input: s.input },
      output: { mode: "json" },
    })),
  };
}

const VICTIM_LWIR: Step[] = [{ id: "big", tool: "big", input: { marker: "{{ input.marker }}" } }];
/** The attacker's own large output first (a real blob of its own run), then the forged reference, then a read of it. */
const ATTACKER_LWIR: Step[] = [
  { id: "big", tool: "big", input: { marker: "{{ input.marker }}" } },
  { id: "forge", tool: "forge", input: { digest: "{{ input.digest }}", bytes: "{{ input.bytes }}" } },
  { id: "echo", tool: "echo", input: { seen: "{{ steps.forge.output }}" } },
];

/**
 * Runs an LWIR in a run object for `tenant`, crashing the object right after `crashAfterStep`'s
 * `StepSucceeded` is durable, so the rest of the run is a resume that reads it back from the log.
 */
async function runCrashing(tenant: string, steps: Step[], input: Record<string, unknown>, crashAfterStep?: string) {
  const runId = `run_blob_${crypto.randomUUID().slice(0, 8)}`;
  let crashed = false;
  overrideWiring({
    models: new EnvModelResolver({ mode: "offline", secrets: {} }),
    workflows: catalogOf([workflow]),
    afterAppend: (events, ctx) => {
      const hit = events.some(
        (e) => e.type === "StepSucceeded" && (e.payload as { stepPath: string }).stepPath.endsWith(`/${crashAfterStep}`),
      );
      if (crashAfterStep && !crashed && hit) {
        crashed = true;
        ctx.abort();
      }
    },
  });
  await runStub(runId, tenant)
    .start({ runId, tenant, workflowId: workflow.definition.id, input, trigger: { kind: "http" }, lwir: await lwirOf(steps) })
    .catch(() => undefined);
  const view = await driveToEnd(runId, 40, tenant);
  const events = (await runStub(runId, tenant).events({ limit: 1000 })) as RunEvent[];
  return { runId, view, events, crashed };
}

function recordedOutput(events: RunEvent[], stepId: string): unknown {
  const event = events.find((e) => e.type === "StepSucceeded" && (e.payload as { stepPath: string }).stepPath.endsWith(`/${stepId}`));
  return (event?.payload as { output?: unknown } | undefined)?.output;
}

afterEach(() => overrideWiring({}));

describe("blob references can't be forged by values, and runs read only their own blobs (issue 15, item 2)", () => {
  it("a tool output shaped like a reference to another tenant's blob, or to the run's own, stays a plain value across a resume", async () => {
    const suffix = crypto.randomUUID().slice(0, 8);
    const victim = await runCrashing(`victim_${suffix}`, VICTIM_LWIR, { marker: "VICTIM-PRIVATE-", digest: "", bytes: 0 });
    expect(victim.view.status).toBe("completed");
    const victimRef = recordedOutput(victim.events, "big");
    expect(isBlobRef(victimRef)).toBe(true);
    const victimDigest = (victimRef as { $blob: Digest }).$blob;
    expect(victimDigest).toBe(digestOf(bigOutput("VICTIM-PRIVATE-")));

    const attackerMarker = `ATTACKER-OWN-${suffix}-`;
    const ownDigest = digestOf(bigOutput(attackerMarker));
    const bytes = new TextEncoder().encode(canonicalJson(bigOutput(attackerMarker))).length;
    for (const [label, digest] of [
      ["another tenant's blob", victimDigest],
      ["the run's own blob", ownDigest],
    ] as const) {
      const attacker = await runCrashing(`attacker_${suffix}`, ATTACKER_LWIR, { marker: attackerMarker, digest, bytes }, "forge");
      expect(attacker.crashed, label).toBe(true);
      expect(attacker.view.status, `${label}: ${JSON.stringify(attacker.view).slice(0, 400)}`).toBe("completed");
      // What the echo step saw after the resume, and the run's output: the literal value, never a blob's contents.
      expect(attacker.view.output, label).toEqual({ seen: { $blob: digest, bytes } });
      expect(JSON.stringify(attacker.view.output), label).not.toMatch(/VICTIM-PRIVATE|ATTACKER-OWN/);
      // In the log the value is escaped: nothing at the top of a recorded output says `$blob` but a real reference.
      const forged = recordedOutput(attacker.events, "forge");
      expect(isBlobRef(forged), label).toBe(false);
      expect(forged, label).toEqual({ $object: { $blob: digest, bytes } });
      // The attacker's own real blob is still a reference, under its own run's prefix.
      expect(isBlobRef(recordedOutput(attacker.events, "big")), label).toBe(true);
      const own = await env.BLOBS.head(blobKey({ tenant: `attacker_${suffix}`, runId: attacker.runId }, ownDigest));
      expect(own?.customMetadata, label).toEqual({ tenant: `attacker_${suffix}`, runId: attacker.runId });

      // The forged value as the run's own output (the last step): the run's result is read from the
      // recorded value, so it too stays the literal value.
      const terminal = await runCrashing(
        `attacker_${suffix}`,
        ATTACKER_LWIR.slice(0, 2),
        { marker: attackerMarker, digest, bytes },
        "forge",
      );
      expect(terminal.view.status, `${label} (terminal): ${JSON.stringify(terminal.view).slice(0, 400)}`).toBe("completed");
      expect(terminal.view.output, `${label} (terminal)`).toEqual({ $blob: digest, bytes });
    }
  }, 120_000);

  it("blobs are keyed by tenant and run; another run's store (even the same tenant's) can neither read nor probe them", async () => {
    const tenant = `owner_${crypto.randomUUID().slice(0, 8)}`;
    const run = await runCrashing(tenant, VICTIM_LWIR, { marker: "OWNED-", digest: "", bytes: 0 });
    const digest = (recordedOutput(run.events, "big") as { $blob: Digest }).$blob;
    const owner = { tenant, runId: run.runId };
    // Only the scoped key exists; nothing under the old shared prefix.
    const listed = await env.BLOBS.list({ prefix: `t/${tenant}/` });
    expect(listed.objects.map((o) => o.key)).toEqual([blobKey(owner, digest)]);
    expect(await env.BLOBS.head(`outputs/${digest.slice(7)}`)).toBeNull();
    expect(await new R2BlobStore(env.BLOBS, owner).get(digest)).toContain("OWNED-");
    const unknown = digestOf({ never: "stored" });
    for (const other of [
      { tenant: `other_${tenant}`, runId: run.runId },
      { tenant, runId: `${run.runId}_other` },
    ]) {
      const store = new R2BlobStore(env.BLOBS, other);
      // The same answer as for a digest nobody stored: no probing.
      expect(await store.get(digest)).toBeNull();
      expect(await store.get(unknown)).toBeNull();
    }
    // An object copied under another run's prefix keeps its owner metadata and is refused there.
    const stolen = { tenant, runId: `${run.runId}_thief` };
    const original = await env.BLOBS.get(blobKey(owner, digest));
    await env.BLOBS.put(blobKey(stolen, digest), (await original?.text()) ?? "", { customMetadata: { ...original?.customMetadata } });
    expect(await new R2BlobStore(env.BLOBS, stolen).get(digest)).toBeNull();
    // Segments are encoded: a tenant name with a slash can't spell another tenant's prefix.
    expect(blobKey({ tenant: "a/runs/b", runId: "c" }, digest)).not.toBe(blobKey({ tenant: "a", runId: "b/outputs" }, digest));
  }, 60_000);

  it("a completed run whose output blob was altered or is gone is still shown (200, outputError named, no output), never a 500", async () => {
    const tenant = `lost_${crypto.randomUUID().slice(0, 8)}`;
    const token = await tenantToken(tenant);
    const run = await runCrashing(tenant, VICTIM_LWIR, { marker: "LOST-", digest: "", bytes: 0 });
    expect(run.view.status).toBe("completed");
    expect(JSON.stringify(run.view.output)).toContain("LOST-");
    const terminal = run.events.at(-1)?.payload as { output: { $blob: Digest } };
    const key = blobKey({ tenant, runId: run.runId }, terminal.output.$blob);
    const stored = await env.BLOBS.get(key);
    await env.BLOBS.put(key, `${(await stored?.text()) ?? ""} `, { customMetadata: { ...stored?.customMetadata } });
    const altered = await call("GET", `/v1/runs/${run.runId}`, { token });
    expect(altered.status).toBe(200);
    expect(altered.json.run).toMatchObject({ status: "completed", outputError: { code: "output_integrity" } });
    expect((altered.json.run as { output?: unknown }).output).toBeUndefined();
    await env.BLOBS.delete(key);
    const gone = await call("GET", `/v1/runs/${run.runId}`, { token });
    expect(gone.status).toBe(200);
    expect(gone.json.run).toMatchObject({ status: "completed", outputError: { code: "output_missing" } });
    expect((await runStub(run.runId, tenant).status()).outputError?.code).toBe("output_missing");
  }, 60_000);

  it("a section closing on a large last occurrence completes with that output's value, not its reference", async () => {
    // The summary nests the last occurrence's recorded output: it is read back (and decoded) first.
    const section = sectionWorkflow("blobs.section", "end", 1);
    overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {} }), workflows: catalogOf([section]) });
    const runId = `run_blob_sec_${crypto.randomUUID().slice(0, 8)}`;
    const tenant = `sec_${crypto.randomUUID().slice(0, 8)}`;
    const text = `big-${PAD}`;
    await runStub(runId, tenant).start({
      runId,
      tenant,
      workflowId: "blobs.section",
      input: { text, fail: false },
      trigger: { kind: "programmatic" },
      lwir: await sectionLwir(section),
    });
    const view = await driveToEnd(runId, 20, tenant);
    expect(view.status).toBe("completed");
    expect(view.output).toEqual({ occurrences: 1, completed: 1, failed: 0, lastOutput: { echoed: text.toUpperCase() } });
  }, 60_000);
});
