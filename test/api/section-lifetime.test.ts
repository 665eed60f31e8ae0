/**
 * A section's life through the Worker's fetch handler, D1 and its run object: the run's
 * `timeoutMs` bounds only its compile (a section waits for days), `onTrigger.occurrenceTimeoutMs`
 * fails one occurrence under `onBodyFailure` and leaves the section alive, and a redeploy that
 * changes the definition hash has a path: a stale section refuses triggers (409 `section_stale`),
 * the stale sections are listed, and one is superseded by a section under the new definition,
 * which adopts its pending occurrences.
 */

import { env } from "cloudflare:workers";
import { openai } from "@ai-sdk/openai";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { catalogOf, type RegisteredWorkflow } from "../../src/engine/run-environment.ts";
import { snapshotDefinition } from "../../src/identity/definition-snapshot.ts";
import type { NewRunEvent } from "../../src/ports/run-events.ts";
import { type BodyFailurePolicy, defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";
import { tool } from "../../src/sdk/tool.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { toolCallLwir } from "../support/tool-call-lwir.ts";
import { call, runEvents } from "./support/api-call.ts";

type Options = { policy?: BodyFailurePolicy; occurrenceTimeoutMs?: number; timeoutMs?: number; description?: string; maxText?: number };

/** A section whose body is one `work` call: `{ text }` → `{ echoed }`; "hang" waits until its call is aborted. */
function slowSection(id: string, o: Options = {}): RegisteredWorkflow {
  return {
    definition: defineWorkflow({
      id,
      description: o.description ?? "Echo each trigger's text, slowly when asked.",
      input: z.object({ text: o.maxText === undefined ? z.string() : z.string().max(o.maxText) }),
      output: z.object({ echoed: z.string() }),
      models: [model(openai("gpt-4o-mini"), { description: "Unused by the body." })],
      planner: { model: openai("gpt-5"), system: "Plan an echo." },
      tools: {
        work: tool({
          description: "Echo a text; hang on 'hang' until aborted",
          inputSchema: z.object({ text: z.string() }),
          outputSchema: z.object({ echoed: z.string() }),
          execute: async ({ text }: { text: string }, options?: { abortSignal?: AbortSignal }) => {
            if (text === "hang")
              await new Promise((_, reject) => options?.abortSignal?.addEventListener("abort", () => reject(new Error("aborted"))));
            return { echoed: text.toUpperCase() };
          },
        }),
      },
      ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
      onTrigger: {
        ...(o.policy ? { onBodyFailure: o.policy } : {}),
        ...(o.occurrenceTimeoutMs !== undefined ? { occurrenceTimeoutMs: o.occurrenceTimeoutMs } : {}),
      },
    }),
    tools: {},
  };
}

/** A clock the test moves: the run's deadlines and the log's times read it. */
const clock = { offset: 0, now: () => Date.now() + clock.offset };

function serve(workflows: RegisteredWorkflow[], beforeAppend?: (events: readonly NewRunEvent[], ctx: DurableObjectState) => void) {
  overrideWiring({
    models: new EnvModelResolver({ mode: "offline", secrets: {} }),
    workflows: catalogOf(workflows),
    clock,
    ...(beforeAppend ? { beforeAppend } : {}),
  });
}

afterEach(() => {
  clock.offset = 0;
  overrideWiring({});
});

type RunBody = { runId: string; status: string; occurrences?: { latest: { occurrenceId: string; status: string; output?: unknown }[] } };

async function startSection(workflow: RegisteredWorkflow, text = "first"): Promise<string> {
  const r = await call("POST", "/v1/lwir/runs?wait=20", {
    body: { lwir: await toolCallLwir(workflow, "work", { text: "{{ input.text }}" }), input: { text } },
  });
  expect(r.status, r.text).toBe(202);
  const run = r.json.run as RunBody;
  expect(run.status).toBe("waiting");
  return run.runId;
}

const trigger = (runId: string, text: string) =>
  call("POST", `/v1/runs/${runId}/triggers?wait=20`, { body: { input: { text } } }).then((r) => ({ ...r, run: r.json.run as RunBody }));

describe("a section's timeouts", () => {
  it("the run's timeoutMs bounds the compile only: a section triggered long after it is still served", async () => {
    const w = slowSection("life.run-timeout", { policy: "end", timeoutMs: 60_000 });
    serve([w]);
    const runId = await startSection(w);
    clock.offset = 3_600_000; // an hour later: far past RunRequested + timeoutMs
    const second = await trigger(runId, "later");
    expect(second.run.status).toBe("waiting");
    expect(second.run.occurrences?.latest.at(-1)).toMatchObject({ occurrenceId: "o2", status: "completed", output: { echoed: "LATER" } });
  }, 60_000);

  it("occurrenceTimeoutMs fails the occurrence (occurrence_timeout) and, under 'continue', the section stays armed", async () => {
    const w = slowSection("life.occ-continue", { policy: "continue", occurrenceTimeoutMs: 300 });
    serve([w]);
    const runId = await startSection(w);
    const hung = await trigger(runId, "hang");
    expect(hung.run.status).toBe("waiting");
    const events = await runEvents(runId);
    expect(events.find((e) => e.type === "OccurrenceFailed")?.payload).toMatchObject({
      occurrenceId: "o2",
      causeCode: "occurrence_timeout",
      rearmed: true,
    });
    const next = await trigger(runId, "after");
    expect(next.run.occurrences?.latest.map((o) => [o.occurrenceId, o.status])).toEqual([
      ["o1", "completed"],
      ["o2", "failed"],
      ["o3", "completed"],
    ]);
    await call("POST", `/v1/runs/${runId}/cancel`);
  }, 60_000);

  it("under 'end' a timed-out occurrence ends the run with occurrence_timeout", async () => {
    const w = slowSection("life.occ-end", { policy: "end", occurrenceTimeoutMs: 300 });
    serve([w]);
    const runId = await startSection(w);
    const hung = await trigger(runId, "hang");
    expect(hung.run.status).toBe("failed");
    expect((await runEvents(runId)).at(-1)).toMatchObject({ type: "RunFailed", payload: { causeCode: "occurrence_timeout" } });
  }, 60_000);

  it("the option is hashed only when authored: a definition without it keeps its hash", async () => {
    const without = await snapshotDefinition(slowSection("life.hash", { policy: "continue" }).definition, {});
    expect(without.snapshot.section).toEqual({ kind: "onTrigger", onBodyFailure: "continue" });
    const withIt = await snapshotDefinition(slowSection("life.hash", { policy: "continue", occurrenceTimeoutMs: 5_000 }).definition, {});
    expect(withIt.snapshot.section).toEqual({ kind: "onTrigger", onBodyFailure: "continue", occurrenceTimeoutMs: 5_000 });
    expect(withIt.definitionHash).not.toBe(without.definitionHash);
    expect(() => slowSection("life.bad", { occurrenceTimeoutMs: 0 })).toThrow(/occurrenceTimeoutMs/);
  });
});

describe("sections across a redeploy", () => {
  it("lists stale sections, supersedes one (section_superseded) and the new section adopts its pending occurrences", async () => {
    const v1 = slowSection("life.redeploy", { policy: "continue" });
    const v2 = slowSection("life.redeploy", { policy: "continue", description: "Echo each trigger's text (v2)." });
    serve([v1]);
    const old = await startSection(v1);
    // Park the old section's slices (each fails before it can start an occurrence, and is retried
    // later) so the occurrences queued now stay pending, as triggers queued just before a deploy do.
    const parked = env.RUNS.idFromName(`dev:${old}`).toString();
    const park = (events: readonly NewRunEvent[], ctx: DurableObjectState) => {
      const allowed = events.every(
        (e) => e.type === "OccurrenceQueued" || (e.type === "RunFailed" && e.payload.causeCode === "section_superseded"),
      );
      if (ctx.id.toString() === parked && !allowed) throw new Error("parked by the test");
    };
    serve([v1], park);
    for (const text of ["parked-1", "parked-2"]) {
      const r = await call("POST", `/v1/runs/${old}/triggers`, { body: { input: { text } } });
      expect(r.status).toBe(202);
    }
    // The redeploy: the definition hash changes.
    serve([v2], park);
    const fresh = await startSection(v2, "new");
    // A trigger reaching the stale section is refused, and nothing is queued (queued, it would fail
    // the section with capability_drift and be lost).
    const refused = await call("POST", `/v1/runs/${old}/triggers`, { body: { input: { text: "after-deploy" } } });
    expect([refused.status, refused.json.error?.code]).toEqual([409, "section_stale"]);
    expect(refused.json.error?.message).toContain("/supersede");
    expect((await runEvents(old)).filter((e) => e.type === "OccurrenceQueued")).toHaveLength(2);
    const listed = await call("GET", "/v1/workflows/life.redeploy/sections?stale=true");
    expect(listed.status).toBe(200);
    expect((listed.json.sections as { runId: string; stale: boolean }[]).map((s) => [s.runId, s.stale])).toEqual([[old, true]]);
    const all = await call("GET", "/v1/workflows/life.redeploy/sections");
    expect((all.json.sections as { runId: string }[]).map((s) => s.runId).sort()).toEqual([old, fresh].sort());

    const superseded = await call("POST", `/v1/runs/${old}/supersede`, { body: { into: fresh } });
    expect(superseded.status, superseded.text).toBe(200);
    expect(superseded.json).toMatchObject({
      run: { runId: old, status: "failed" },
      into: fresh,
      adopted: [
        { from: "o2", occurrenceId: "o2", created: true },
        { from: "o3", occurrenceId: "o3", created: true },
      ],
    });
    expect((await runEvents(old)).at(-1)).toMatchObject({ type: "RunFailed", payload: { causeCode: "section_superseded" } });
    // A retry with the same target adopts nothing twice.
    const again = await call("POST", `/v1/runs/${old}/supersede`, { body: { into: fresh } });
    expect(again.json.adopted).toEqual([
      { from: "o2", occurrenceId: "o2", created: false },
      { from: "o3", occurrenceId: "o3", created: false },
    ]);
    // The new section runs them under the new definition.
    let latest: NonNullable<RunBody["occurrences"]>["latest"] = [];
    for (let i = 0; i < 400; i++) {
      latest = ((await call("GET", `/v1/runs/${fresh}`)).json.run as RunBody).occurrences?.latest ?? [];
      if (latest.at(-1)?.status === "completed") break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(latest.map((o) => [o.occurrenceId, o.status, o.output])).toEqual([
      ["o1", "completed", { echoed: "NEW" }],
      ["o2", "completed", { echoed: "PARKED-1" }],
      ["o3", "completed", { echoed: "PARKED-2" }],
    ]);
    expect((await call("POST", `/v1/runs/${old}/triggers`, { body: { input: { text: "late" } } })).json.error?.code).toBe("run_ended");
    expect(((await call("GET", "/v1/workflows/life.redeploy/sections?stale=true")).json.sections as unknown[]).length).toBe(0);
    await call("POST", `/v1/runs/${fresh}/cancel`);
  }, 60_000);

  it("refuses (422) to move in a pending occurrence the live input schema refuses, before ending the old section", async () => {
    const v1 = slowSection("life.narrowed", { policy: "end" });
    // The redeploy narrows the input: "parked-long" no longer fits, "ok" does.
    const v2 = slowSection("life.narrowed", { policy: "end", maxText: 5 });
    serve([v1]);
    const old = await startSection(v1);
    const parked = env.RUNS.idFromName(`dev:${old}`).toString();
    const park = (events: readonly NewRunEvent[], ctx: DurableObjectState) => {
      if (ctx.id.toString() === parked && !events.every((e) => e.type === "OccurrenceQueued" || e.type === "RunCancelled"))
        throw new Error("parked by the test");
    };
    serve([v1], park);
    for (const text of ["ok", "parked-long"])
      expect((await call("POST", `/v1/runs/${old}/triggers`, { body: { input: { text } } })).status).toBe(202);
    serve([v2], park);
    const fresh = await startSection(v2, "new");
    const refused = await call("POST", `/v1/runs/${old}/supersede`, { body: { into: fresh } });
    expect([refused.status, refused.json.error?.code]).toEqual([422, "input_schema_error"]);
    const findings = refused.json.error?.findings as { path: string; message: string }[];
    expect(findings.map((f) => f.path)).toEqual(["$.occurrences.o3.text"]);
    expect(findings[0]?.message).toMatch(/^o3: /);
    // Nothing changed: the old section has not ended, the new one adopted nothing.
    expect((await runEvents(old)).some((e) => e.type === "RunFailed")).toBe(false);
    expect((await runEvents(fresh)).filter((e) => e.type === "OccurrenceQueued")).toHaveLength(0);
    expect(((await call("GET", `/v1/runs/${fresh}`)).json.run as RunBody).status).toBe("waiting");
    for (const id of [old, fresh]) await call("POST", `/v1/runs/${id}/cancel`);
  }, 60_000);

  it("refuses a section with an occurrence running, and a target that is not a live section of the workflow", async () => {
    const w = slowSection("life.busy", { policy: "continue" });
    serve([w, slowSection("life.other")]);
    const busy = await startSection(w);
    const target = await startSection(w, "target");
    const other = await startSection(slowSection("life.other"));
    await call("POST", `/v1/runs/${busy}/triggers`, { body: { input: { text: "hang" } } });
    // Waits until the occurrence runs (its tool hangs until the cancel below aborts it).
    for (let i = 0; i < 200; i++) {
      if ((await runEvents(busy)).some((e) => e.type === "OccurrenceStarted" && e.payload.occurrenceId === "o2")) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const refused = await call("POST", `/v1/runs/${busy}/supersede`, { body: { into: target } });
    expect([refused.status, refused.json.error?.code]).toEqual([409, "section_not_waiting"]);
    const mismatch = await call("POST", `/v1/runs/${target}/supersede`, { body: { into: other } });
    expect([mismatch.status, mismatch.json.error?.code]).toEqual([409, "section_not_live"]);
    for (const id of [busy, target, other]) await call("POST", `/v1/runs/${id}/cancel`);
  }, 60_000);
});
