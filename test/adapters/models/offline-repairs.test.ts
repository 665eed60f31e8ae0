import { env } from "cloudflare:workers";
import { openai } from "@ai-sdk/openai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { EnvModelResolver } from "../../../src/adapters/models/env-model-resolver.ts";
import { OFFLINE_REPAIRS, offlineRepair, type RepairableFailure } from "../../../src/adapters/models/offline-repairs.ts";
import { IsolateSandbox } from "../../../src/adapters/sandbox-isolate/isolate-sandbox.ts";
import { runWorkflow } from "../../../src/engine/run-workflow.ts";
import { digestText } from "../../../src/json/digest.ts";
import type { RunCodeResult } from "../../../src/ports/sandbox.ts";
import { defineWorkflow } from "../../../src/sdk/define-workflow.ts";
import { model } from "../../../src/sdk/model.ts";
import { MemoryWorld } from "../../../src/worlds/memory-world.ts";

const sandbox = new IsolateSandbox({ loader: env.LOADER });
const DENY = { network: "deny", env: "deny", fs: "deny" } as const;

async function runFile(source: string, input: unknown, entrypoint = "main.ts"): Promise<RunCodeResult> {
  return sandbox.runCode({ files: { [entrypoint]: { content: source, sha256: digestText(source) } }, entrypoint, input, policy: DENY });
}

/** Runs the broken file for real, repairs what the sandbox reported, and runs the repair. */
async function failRepairRun(source: string, input: unknown) {
  const first = await runFile(source, input);
  if (first.ok) throw new Error(`expected ${JSON.stringify(source.slice(0, 40))} to fail`);
  const failure: RepairableFailure = { entrypoint: "main.ts", source, error: { ...first.error, logs: first.logs }, input };
  const repair = offlineRepair(failure);
  const second = repair ? await runFile(repair.source, input) : null;
  return { failure, repair, second };
}

describe("the offline fixer's repertoire, each repair applied to a real sandbox failure", () => {
  it("input-field-name: renames input.<x> to the input's closest field after a TypeError", async () => {
    const source = "export function run({ input }) {\n  return { n: input.item.length, first: input?.item[0] };\n}\n";
    const { failure, repair, second } = await failRepairRun(source, { items: ["a", "b"] });
    expect(failure.error.code).toBe("code_threw");
    expect(repair).toMatchObject({ id: "input-field-name", summary: expect.stringContaining("input.item -> input.items") });
    expect(second).toMatchObject({ ok: true, output: { n: 2, first: "a" } });
  });

  it("input-field-name: declines when two fields are equally close, or none is close", () => {
    const failure = (source: string, input: unknown): RepairableFailure => ({
      entrypoint: "main.ts",
      source,
      input,
      error: { code: "code_threw", message: "TypeError: Cannot read properties of undefined (reading 'length')", logs: [] },
    });
    expect(offlineRepair(failure("export function run({ input }) { return input.cat.length; }", { bat: 1, cab: 2 }))).toBeNull();
    expect(offlineRepair(failure("export function run({ input }) { return input.weather.length; }", { orders: [] }))).toBeNull();
  });

  it("todo-guard: removes the thrown TODO marker that fired when code after it returns", async () => {
    const source =
      'export function run({ input }) {\n  if (input.values.length === 0) throw new Error("TODO: handle an empty list");\n  return { sum: input.values.reduce((a, b) => a + b, 0) };\n}\n';
    const { failure, repair, second } = await failRepairRun(source, { values: [] });
    expect(failure.error.message).toContain("TODO: handle an empty list");
    expect(repair?.id).toBe("todo-guard");
    expect(repair?.source).not.toContain("TODO");
    expect(second).toMatchObject({ ok: true, output: { sum: 0 } });
  });

  it("todo-guard: declines a stub whose whole body is the marker", async () => {
    const { repair } = await failRepairRun('export function run() {\n  throw new Error("not implemented");\n}\n', {});
    expect(repair).toBeNull();
  });

  it("run-export: exports an unexported run", async () => {
    const { failure, repair, second } = await failRepairRun("async function run({ input }) {\n  return { ok: input.x };\n}\n", { x: 1 });
    expect(failure.error.code).toBe("code_no_run_export");
    expect(repair?.id).toBe("run-export");
    expect(second).toMatchObject({ ok: true, output: { ok: 1 } });
  });

  it("run-export: exports the default function, or the only exported function, as run", async () => {
    const named = await failRepairRun("export default function main({ input }) {\n  return { v: input.v };\n}\n", { v: "d" });
    expect(named.second).toMatchObject({ ok: true, output: { v: "d" } });
    const anonymous = await failRepairRun("export default async function ({ input }) {\n  return { v: input.v };\n}\n", { v: "a" });
    expect(anonymous.second).toMatchObject({ ok: true, output: { v: "a" } });
    const only = await failRepairRun("export function compute({ input }) {\n  return { v: input.v * 2 };\n}\n", { v: 2 });
    expect(only.second).toMatchObject({ ok: true, output: { v: 4 } });
  });

  it("run-export: turns a CommonJS export (a ReferenceError in an ES module sandbox) into an ES export", async () => {
    const property = await failRepairRun("exports.run = async ({ input }) => ({ v: input.v });\n", { v: true });
    expect(property.failure.error).toMatchObject({ code: "code_load_failed", message: expect.stringContaining("exports is not defined") });
    expect(property.repair?.id).toBe("run-export");
    expect(property.second).toMatchObject({ ok: true, output: { v: true } });
    const object = await failRepairRun("async function run({ input }) {\n  return { v: input.v };\n}\nmodule.exports = { run };\n", {
      v: 3,
    });
    expect(object.second).toMatchObject({ ok: true, output: { v: 3 } });
    const value = await failRepairRun("module.exports = async function ({ input }) {\n  return { v: input.v };\n};\n", { v: 4 });
    expect(value.second).toMatchObject({ ok: true, output: { v: 4 } });
  });

  it("run-export: declines a file with several exported functions and no clear run", async () => {
    const { repair } = await failRepairRun("export function a() { return 1; }\nexport function b() { return 2; }\n", {});
    expect(repair).toBeNull();
  });

  it("json-safe-output: wraps run so a BigInt, a Map, a Set and a Date come out as plain JSON", async () => {
    const source =
      "export async function run({ input }) {\n  return { big: BigInt(input.n) * 2n, huge: 2n ** 80n, seen: new Set(['a']), by: new Map([['k', 1]]), at: new Date(0) };\n}\n";
    const { failure, repair, second } = await failRepairRun(source, { n: 21 });
    expect(failure.error.code).toBe("code_output_not_json");
    expect(repair?.id).toBe("json-safe-output");
    expect(second).toMatchObject({
      ok: true,
      output: { big: 42, huge: "1208925819614629174706176", seen: ["a"], by: { k: 1 }, at: "1970-01-01T00:00:00.000Z" },
    });
  });

  it("declines failures no rule reads (a timeout, a plain thrown error)", () => {
    const failure = (code: string, message: string): RepairableFailure => ({
      entrypoint: "main.ts",
      source: "export function run() { while (true) {} }",
      input: {},
      error: { code, message, logs: [] },
    });
    expect(offlineRepair(failure("code_timeout", "the code ran past its wall-time limit"))).toBeNull();
    expect(offlineRepair(failure("code_threw", "Error: the upstream said no"))).toBeNull();
    expect(OFFLINE_REPAIRS.map((r) => r.id)).toEqual(["input-field-name", "todo-guard", "run-export", "json-safe-output"]);
  });
});

describe("the offline model as a fixer, in a run", () => {
  const workflow = defineWorkflow({
    id: "offline.fixer",
    description: "A code.run step the offline fixer is asked to repair.",
    input: z.object({ values: z.array(z.number()) }),
    output: { mode: "json" },
    models: [model(openai("gpt-4o-mini"), { description: "fixer", id: "fixer" })],
    planner: { model: openai("gpt-5"), system: "unused: these runs carry their LWIR" },
  });
  const world = () => new MemoryWorld({ models: new EnvModelResolver({ mode: "offline", secrets: {} }), sandbox });
  const lwir = (content: string) => ({
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "offline.fixer", version: "0.1.0" },
    input: { schema: { type: "object", properties: { values: { type: "array", items: { type: "number" } } }, required: ["values"] } },
    output: { schema: true },
    permissions: { models: ["fixer"], tools: [], secrets: [], network: [] },
    steps: [
      {
        id: "sum",
        uses: "code.run",
        needs: [],
        with: { entrypoint: "sum.ts", files: { "sum.ts": { content, sha256: digestText(content) } }, sandbox: DENY },
        output: { mode: "object", schema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] } },
        onFailure: { fixer: { model: "fixer", maxAttempts: 2, system: "Repair sum.ts." } },
      },
    ],
  });

  it("repairs a code.run body with submit_fix and the step succeeds", async () => {
    const w = world();
    const code = "export function run({ input }) {\n  return { sum: input.value.reduce((a, b) => a + b, 0) };\n}\n";
    const r = await runWorkflow(workflow, { values: [1, 2, 3] }, { world: w, runId: "run_offline_fix_ok", lwir: lwir(code) });
    expect(r.cause).toBeUndefined();
    expect(r.output).toEqual({ sum: 6 });
  });

  it("says so when no repair applies, and the step fails with fixer_failed", async () => {
    const w = world();
    const code = 'export function run() {\n  throw new Error("the ledger is closed");\n}\n';
    const r = await runWorkflow(workflow, { values: [1] }, { world: w, runId: "run_offline_fix_none", lwir: lwir(code) });
    expect(r.cause?.code).toBe("step_failed");
    const events = (await w.logs.get("run_offline_fix_none")?.all()) ?? [];
    const answer = events.find((e) => e.type === "harness.model.responded" && JSON.stringify(e.payload).includes("fixer"));
    expect(JSON.stringify(answer?.payload)).toContain("The offline fixer has no repair for code_threw: Error: the ledger is closed");
    const failed = events.find((e) => e.type === "StepFailed");
    expect(failed?.payload).toMatchObject({ error: { code: "fixer_failed" } });
    expect(events.some((e) => e.type === "harness.tool_call.started" && (e.payload as { tool: string }).tool === "submit_fix")).toBe(false);
  });
});
