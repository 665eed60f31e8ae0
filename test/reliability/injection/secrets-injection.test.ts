/**
 * Reliability item 10, secrets and injection. Adversarial scripted models and tools try to get a
 * bound secret (`CRM_TOKEN`) out, and to reach tools outside the LWIR's permissions:
 * (a) a worker model (ai.generate) answers with the secret in every promised form, placed in
 *     values, keys, arrays and split across fields;
 * (b) worker and planner models emit tool calls to tools they were never given (workflow tools,
 *     the planner's own, an invented one), and the planner submits LWIRs that call a declared but
 *     unpermitted tool or an undeclared one;
 * (c) a tool returns or throws the secret.
 * Pass: no promised form of the secret in any D1 table, the run objects' SQLite, the blob bucket,
 * or anything the API serves; no execution outside permissions counted at the tool.
 *
 * Where the guarantee comes from: a model can only call the tools of its harness session (worker:
 * none; planner: `bash`, `submit_lwir`; fixer: `bash`, `submit_fix`), and workflow tools run only
 * as `tool.call` steps of an LWIR that passed validation against the definition. Secrets reach only
 * tools; every appended event is redacted. Counts scale with LITTLE_TORTURE_SEEDS.
 */
import { afterEach, describe, expect, it } from "vitest";
import { catalogOf } from "../../../src/engine/run-environment.ts";
import { overrideWiring } from "../../../src/wiring.ts";
import { call } from "../../api/support/api-call.ts";
import { tortureSeeds } from "../security/support/random.ts";
import { hijackedPlanner, leakingWorker, OUT_OF_BOUNDS_TOOLS, resolverOf } from "./support/adversarial-models.ts";
import { brokenCodeStep, echoStep, injectionLwir, injectionWorkflow, leakStep, reached } from "./support/injection-workflow.ts";
import { formsFound, secretForms } from "./support/secret-forms.ts";
import { tenantWithSecret } from "./support/secret-tenant.ts";
import { servedFor } from "./support/served.ts";
import { dumpBlobs, dumpD1, dumpRunObject } from "./support/storage-dump.ts";

const SEEDS = tortureSeeds();
const REDACTED = "[redacted:CRM_TOKEN]";

afterEach(() => overrideWiring({}));

type RunBody = { runId: string; status: string; output?: unknown; cause?: { code?: string; causeCode?: string; message: string } };

/** Everything stored (D1, each run object, the blob bucket) and served, as one text. */
async function everything(runIds: string[], tenant: string, token: string, served: string[]): Promise<string> {
  served.push((await call("GET", "/v1/runs?limit=200", { token })).text);
  const stored = [await dumpD1(), await dumpBlobs(), ...(await Promise.all(runIds.map((id) => dumpRunObject(id, tenant))))];
  return [...served, ...stored].join("\n");
}

function reachedCount(name: string): number {
  return reached.get(name) ?? 0;
}

describe("secrets and injection (item 10)", () => {
  it("a worker model and a tool that echo the secret in every form, and tool calls the worker was never given: nothing stored or served, no tool reached", async () => {
    const { tenant, token, secret, served } = await tenantWithSecret("worker");
    const before = new Map(reached);
    const runIds: string[] = [];
    let inputs = 0;
    let hijackedCalls = 0;
    for (let seed = 0; seed < SEEDS; seed++) {
      const callTools = seed % 3 === 0;
      const worker = leakingWorker(() => secret, seed, callTools);
      overrideWiring({ models: resolverOf(worker, worker), workflows: catalogOf([injectionWorkflow]) });
      const mode = seed % 4 === 3 ? "throw" : "return";
      const lwir = await injectionLwir([leakStep, echoStep], ["leak"]);
      const r = await call("POST", "/v1/lwir/runs?wait=20", { token, body: { lwir, input: { mode, seed } } });
      expect(r.status, r.text).toBeLessThan(500);
      const run = r.json.run as RunBody;
      runIds.push(run.runId);
      expect(["completed", "failed"]).toContain(run.status);
      if (mode === "throw") expect(run.status).toBe("failed");
      inputs += 1 + worker.doGenerateCalls.length;
      if (callTools) hijackedCalls += worker.doGenerateCalls.length * OUT_OF_BOUNDS_TOOLS.length;
      served.push(r.text, ...(await servedFor(run.runId, token, true)));
    }
    const text = await everything(runIds, tenant, token, served);
    expect(text).toContain(REDACTED);
    const found = formsFound(text, secret);
    for (const name of ["forbidden", "stray", "guarded"]) expect(reachedCount(name) - (before.get(name) ?? 0), name).toBe(0);
    console.log(
      `[item 10a/c] runs ${runIds.length}, leaking answers and tool results ${inputs}, secret forms checked ${secretForms(secret).length} in ${(text.length / 1024).toFixed(0)} KiB stored+served, forms found ${found.length}; tool calls attempted outside permissions ${hijackedCalls}, reached 0`,
    );
    expect(found).toEqual([]);
  });

  it("a hijacked planner calls tools it was never given and submits LWIRs calling unpermitted and undeclared tools: all refused, none reached", async () => {
    const { tenant, token, secret, served } = await tenantWithSecret("planner");
    const before = new Map(reached);
    const runs = Math.max(2, Math.ceil(SEEDS / 5));
    const runIds: string[] = [];
    let hijackedCalls = 0;
    let refusedDrafts = 0;
    for (let seed = 0; seed < runs; seed++) {
      const unpermitted = await injectionLwir(
        [{ id: "wipe", uses: "tool.call", needs: [], with: { tool: "forbidden", input: { confirm: secret } }, output: { mode: "json" } }],
        ["leak"],
      );
      const undeclared = await injectionLwir(
        [{ id: "out", uses: "tool.call", needs: [], with: { tool: "stray", input: { value: secret } }, output: { mode: "json" } }],
        ["stray"],
      );
      const valid = await injectionLwir([leakStep, echoStep], ["leak"]);
      const planner = hijackedPlanner(() => secret, [() => unpermitted, () => undeclared, () => valid]);
      const worker = leakingWorker(() => secret, seed, seed % 2 === 1);
      overrideWiring({ models: resolverOf(planner, worker), workflows: catalogOf([injectionWorkflow]) });
      const r = await call("POST", "/v1/workflows/inject.secrets/runs?wait=30", { token, body: { input: { mode: "return", seed } } });
      expect(r.status, r.text).toBeLessThan(500);
      const run = r.json.run as RunBody;
      runIds.push(run.runId);
      // A worker answer with tool calls has no structured output: that run fails (model_error), closed.
      expect(run.status, r.text).toBe(seed % 2 === 1 ? "failed" : "completed");
      const events = (await call("GET", `/v1/runs/${run.runId}/events?limit=1000`, { token })).json.events as {
        type: string;
        payload: Record<string, unknown>;
      }[];
      const submissions = events.filter((e) => e.type === "harness.tool_call.succeeded" && e.payload.tool === "submit_lwir");
      const refused = submissions.filter((e) => (e.payload.result as { accepted?: boolean }).accepted === false);
      // Turn 1's garbage submit_lwir call, the unpermitted tool, the undeclared tool.
      expect(refused.length).toBe(3);
      expect(events.filter((e) => e.type === "WorkflowVersionRegistered")).toHaveLength(1);
      refusedDrafts += refused.length;
      hijackedCalls += OUT_OF_BOUNDS_TOOLS.length * (1 + worker.doGenerateCalls.length) + 2;
      served.push(r.text, ...(await servedFor(run.runId, token, true)));
    }
    // An LWIR given straight to the API is held to the same permissions: refused before anything runs.
    const direct = [
      await injectionLwir(
        [{ id: "wipe", uses: "tool.call", needs: [], with: { tool: "forbidden", input: { confirm: "yes" } }, output: { mode: "json" } }],
        ["leak"],
      ),
      await injectionLwir(
        [{ id: "out", uses: "tool.call", needs: [], with: { tool: "stray", input: { value: "x" } }, output: { mode: "json" } }],
        ["stray"],
      ),
      await injectionLwir(
        [{ id: "out", uses: "tool.call", needs: [], with: { tool: "stray", input: { value: "x" } }, output: { mode: "json" } }],
        ["leak"],
      ),
    ];
    for (const lwir of direct) {
      const r = await call("POST", "/v1/lwir/runs", { token, body: { lwir, input: { mode: "return", seed: 0 } } });
      expect(r.status, r.text).toBe(400);
      expect(r.json.error?.code).toBe("lwir_invalid");
      expect(r.json.error?.findings?.map((f) => (f as { code?: string }).code)).toEqual(
        expect.arrayContaining([expect.stringMatching(/^(step\.tool_not_permitted|binding\.tool_not_in_snapshot)$/)]),
      );
      hijackedCalls++;
    }
    const text = await everything(runIds, tenant, token, served);
    const found = formsFound(text, secret);
    for (const name of ["forbidden", "stray", "guarded"]) expect(reachedCount(name) - (before.get(name) ?? 0), name).toBe(0);
    console.log(
      `[item 10b] planner runs ${runs}, drafts refused ${refusedDrafts}, LWIRs refused at the API ${direct.length}; tool calls attempted outside permissions ${hijackedCalls}, reached 0; secret forms found ${found.length} in ${(text.length / 1024).toFixed(0)} KiB`,
    );
    expect(found).toEqual([]);
  });

  it("a tool gets a secret only when the LWIR permits it: the same tool under permissions.secrets [] is given none", async () => {
    const { token, secret } = await tenantWithSecret("unpermitted");
    overrideWiring({
      models: resolverOf(
        leakingWorker(() => secret, 0, false),
        leakingWorker(() => secret, 0, false),
      ),
      workflows: catalogOf([injectionWorkflow]),
    });
    const lwir = {
      ...(await injectionLwir([leakStep], ["leak"], [])),
      permissions: { models: [], tools: ["leak"], secrets: [], network: [] },
    };
    const r = await call("POST", "/v1/lwir/runs?wait=20", { token, body: { lwir, input: { mode: "return", seed: 1 } } });
    const run = r.json.run as RunBody;
    expect(run.status, r.text).toBe("failed");
    expect(JSON.stringify(run)).toContain("no token given");
  });

  it("a hijacked fixer (the code.run repair session) calls tools it was never given: none reached, nothing stored or served", async () => {
    const { tenant, token, secret, served } = await tenantWithSecret("fixer");
    const before = new Map(reached);
    const runs = Math.max(1, Math.ceil(SEEDS / 10));
    const runIds: string[] = [];
    let hijackedCalls = 0;
    for (let seed = 0; seed < runs; seed++) {
      const fixer = leakingWorker(() => secret, seed, true);
      overrideWiring({ models: resolverOf(fixer, fixer), workflows: catalogOf([injectionWorkflow]) });
      const lwir = await injectionLwir([brokenCodeStep], []);
      const r = await call("POST", "/v1/lwir/runs?wait=30", { token, body: { lwir, input: { mode: "return", seed } } });
      expect(r.status, r.text).toBeLessThan(500);
      const run = r.json.run as RunBody;
      runIds.push(run.runId);
      // The fixer never submits a usable fix: the step fails, closed.
      expect(run.status, r.text).toBe("failed");
      expect(fixer.doGenerateCalls.length).toBeGreaterThan(0);
      hijackedCalls += fixer.doGenerateCalls.length * OUT_OF_BOUNDS_TOOLS.length;
      served.push(r.text, ...(await servedFor(run.runId, token, true)));
    }
    const text = await everything(runIds, tenant, token, served);
    const found = formsFound(text, secret);
    for (const name of ["leak", "forbidden", "stray", "guarded"]) expect(reachedCount(name) - (before.get(name) ?? 0), name).toBe(0);
    console.log(
      `[item 10 fixer] runs ${runs}; tool calls attempted outside permissions ${hijackedCalls}, reached 0; secret forms found ${found.length} in ${(text.length / 1024).toFixed(0)} KiB`,
    );
    expect(found).toEqual([]);
  });
});
