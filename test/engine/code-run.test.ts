import { env } from "cloudflare:workers";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { IsolateSandbox } from "../../src/adapters/sandbox-isolate/isolate-sandbox.ts";
import { runWorkflow } from "../../src/engine/run-workflow.ts";
import { digestText } from "../../src/json/digest.ts";
import type { SandboxSessionOptions } from "../../src/ports/sandbox.ts";
import type { SecretStore } from "../../src/ports/secret-store.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";
import { MemoryWorld } from "../../src/worlds/memory-world.ts";
import { result } from "../support/scripted-models.ts";

const SCORE = "export async function run({ input }) {\n  return { score: input.signals.length / 10 };\n}";
const BROKEN = "export async function run({ input }) {\n  return { score: input.signal.length / 10 };\n}";

function fixerModel() {
  return new MockLanguageModelV4({
    provider: "mock",
    modelId: "fixer",
    doGenerate: async () =>
      result([{ type: "tool-call", toolCallId: "fix-1", toolName: "submit_fix", input: JSON.stringify({ source: SCORE }) }]),
  });
}

function setup(fixer = fixerModel()) {
  const workflow = defineWorkflow({
    id: "code.score",
    description: "Scores signals with code.",
    input: z.object({ signals: z.array(z.string()) }),
    output: { mode: "json" },
    models: [model(fixer, { description: "repairs code", id: "fixer" })],
    planner: { model: fixer, system: "unused: these runs carry their LWIR" },
  });
  const world = new MemoryWorld({
    models: { resolve: () => ({ model: fixer, offline: false }) },
    sandbox: new IsolateSandbox({ loader: env.LOADER }),
  });
  return { workflow, world, fixer };
}

function lwirWith(content: string, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "code.score", version: "0.1.0" },
    input: { schema: { type: "object", properties: { signals: { type: "array", items: { type: "string" } } }, required: ["signals"] } },
    output: { schema: true },
    permissions: { models: ["fixer"], tools: [], secrets: [], network: [] },
    steps: [
      {
        id: "compute-score",
        uses: "code.run",
        needs: [],
        with: {
          entrypoint: "score.ts",
          files: { "score.ts": { content, sha256: digestText(content) } },
          sandbox: { network: "deny", env: "deny", fs: "deny" },
          input: { signals: "{{ input.signals }}" },
        },
        output: { mode: "object", schema: { type: "object", properties: { score: { type: "number" } }, required: ["score"] } },
        ...extra,
      },
    ],
  };
}

const INPUT = { signals: ["a", "b", "c", "d"] };

describe("code.run steps", () => {
  it("runs the seed's score.ts in an isolate and returns its output", async () => {
    const { workflow, world } = setup();
    const r = await runWorkflow(workflow, INPUT, { world, runId: "run_score", lwir: lwirWith(SCORE) });
    expect(r.cause).toBeUndefined();
    expect(r.output).toEqual({ score: 0.4 });
  });

  it("repairs a broken body with the fixer, records the fix, and replays it without calling the fixer", async () => {
    const { workflow, world, fixer } = setup();
    const lwir = lwirWith(BROKEN, {
      onFailure: { fixer: { model: "fixer", maxAttempts: 2, system: "Fix the code so it returns output matching the schema." } },
    });
    const r = await runWorkflow(workflow, INPUT, { world, runId: "run_fix", lwir });
    expect(r.cause).toBeUndefined();
    expect(r.output).toEqual({ score: 0.4 });
    expect(fixer.doGenerateCalls).toHaveLength(1);
    const events = (await world.logs.get("run_fix")?.all()) ?? [];
    const completed = events.find((e) => e.type === "harness.session.completed" && (e.payload as { role: string }).role === "fixer");
    expect(completed?.payload).toMatchObject({ role: "fixer", fixedSource: SCORE });
    const started = events.find((e) => e.type === "harness.session.started" && (e.payload as { role: string }).role === "fixer");
    expect(started?.payload).toMatchObject({ kind: "fix_step", stepPath: "c1/compute-score" });

    // Resume from just after the fix was recorded: the recorded fix runs, no fixer call.
    world.logs.get("run_fix")?.truncateAfter(events.indexOf(completed as never) + 1);
    const again = await runWorkflow(workflow, INPUT, { world, runId: "run_fix", lwir });
    expect(again.output).toEqual({ score: 0.4 });
    expect(fixer.doGenerateCalls).toHaveLength(1);
  });

  it("fails the step when the fixer's attempts run out", async () => {
    const stubborn = new MockLanguageModelV4({
      provider: "mock",
      modelId: "fixer",
      doGenerate: async () =>
        result([{ type: "tool-call", toolCallId: "fix-x", toolName: "submit_fix", input: JSON.stringify({ source: BROKEN }) }]),
    });
    const { workflow, world } = setup(stubborn);
    const lwir = lwirWith(BROKEN, { onFailure: { fixer: { model: "fixer", maxAttempts: 2, system: "Fix it." } } });
    const r = await runWorkflow(workflow, INPUT, { world, runId: "run_fix_exhausted", lwir });
    expect(r.cause?.code).toBe("step_failed");
    expect(stubborn.doGenerateCalls).toHaveLength(2);
    const failed = ((await world.logs.get("run_fix_exhausted")?.all()) ?? []).find((e) => e.type === "StepFailed");
    expect(failed?.payload).toMatchObject({ error: { code: "fixer_exhausted" } });
  });

  it("denies network to code: a fetch fails the step", async () => {
    const { workflow, world } = setup();
    const code = 'export async function run() { const r = await fetch("https://example.com/"); return { score: r.status }; }';
    const r = await runWorkflow(workflow, INPUT, { world, runId: "run_net", lwir: lwirWith(code) });
    expect(r.cause?.code).toBe("step_failed");
    const failed = ((await world.logs.get("run_net")?.all()) ?? []).find((e) => e.type === "StepFailed");
    expect(failed?.payload).toMatchObject({ error: { code: "code_threw" } });
  });

  it("refuses a code file tampered with after the version was locked, running nothing", async () => {
    const { workflow } = setup();
    let executed = 0;
    const counting = new IsolateSandbox({ loader: env.LOADER });
    const sandbox = {
      openSession: counting.openSession.bind(counting),
      runCode: (req: Parameters<typeof counting.runCode>[0]) => {
        executed += 1;
        return counting.runCode(req);
      },
    };
    const tamperWorld = new MemoryWorld({ models: { resolve: () => ({ model: fixerModel(), offline: false }) }, sandbox });
    await runWorkflow(workflow, INPUT, { world: tamperWorld, runId: "run_tamper", lwir: lwirWith(SCORE) });
    const log = tamperWorld.logs.get("run_tamper");
    const events = (await log?.all()) ?? [];
    // Tamper with the stored request's code, then resume before the step ran.
    const request = events[0]?.payload as { lwir: { steps: { with: { files: Record<string, { content: string }> } }[] } };
    (request.lwir.steps[0] as { with: { files: Record<string, { content: string }> } }).with.files["score.ts"] = {
      ...(request.lwir.steps[0]?.with.files["score.ts"] as { content: string; sha256: string }),
      content: SCORE.replace("10", "1"),
    };
    log?.truncateAfter(events.findIndex((e) => e.type === "RunStarted") + 1);
    executed = 0;
    const r = await runWorkflow(workflow, INPUT, { world: tamperWorld, runId: "run_tamper", lwir: lwirWith(SCORE) });
    expect(r.status).toBe("failed");
    expect(["lwir_invalid", "capability_drift", "code_integrity"]).toContain(r.cause?.code);
    expect(executed).toBe(0);
  });

  it("redacts sandbox.env secrets from the failure the fixer sees: neither its prompt nor its sandbox files hold the key", async () => {
    const KEY = "sk-fixer-canary-7f3a91c2";
    let turn = 0;
    const fixer = new MockLanguageModelV4({
      provider: "mock",
      modelId: "fixer",
      doGenerate: async () =>
        result([
          turn++ === 0
            ? { type: "tool-call", toolCallId: "sh-1", toolName: "bash", input: JSON.stringify({ command: "cat /mnt/task/fix-task.json" }) }
            : { type: "tool-call", toolCallId: "fix-1", toolName: "submit_fix", input: JSON.stringify({ source: SCORE }) },
        ]),
    });
    const workflow = defineWorkflow({
      id: "code.score",
      description: "Scores signals with code.",
      input: z.object({ signals: z.array(z.string()) }),
      output: { mode: "json" },
      models: [model(fixer, { description: "repairs code", id: "fixer" })],
      planner: { model: fixer, system: "unused: these runs carry their LWIR" },
      secrets: ["API_KEY"],
      sandbox: { env: ["API_KEY"] },
    });
    const isolate = new IsolateSandbox({ loader: env.LOADER });
    const opened: SandboxSessionOptions[] = [];
    const sandbox = {
      openSession: (spec: SandboxSessionOptions) => {
        opened.push(spec);
        return isolate.openSession(spec);
      },
      runCode: isolate.runCode.bind(isolate),
    };
    const secrets: SecretStore = {
      keyConfigured: true,
      put: async () => {},
      delete: async () => false,
      list: async () => [],
      reveal: async () => ({ API_KEY: KEY }),
    };
    const world = new MemoryWorld({ models: { resolve: () => ({ model: fixer, offline: false }) }, sandbox, secrets });
    const leaky =
      'export async function run({ input, env }) {\n  console.log("using " + env.API_KEY);\n  throw new Error("bad key " + env.API_KEY);\n}';
    const base = lwirWith(leaky, { onFailure: { fixer: { model: "fixer", maxAttempts: 1, system: "Fix it." } } });
    const lwir = {
      ...base,
      permissions: { ...base.permissions, secrets: ["API_KEY"] },
      steps: base.steps.map((s) => ({ ...s, with: { ...s.with, sandbox: { network: "deny", env: "allow", fs: "deny" } } })),
    };
    const r = await runWorkflow(workflow, INPUT, { world, runId: "run_fix_secret", lwir });
    expect(r.cause).toBeUndefined();
    expect(r.output).toEqual({ score: 0.4 });
    expect(fixer.doGenerateCalls).toHaveLength(2);
    const prompts = JSON.stringify(fixer.doGenerateCalls.map((c) => c.prompt));
    // The fixer still sees what failed, with the key's value replaced.
    expect(prompts).toContain("[redacted:API_KEY]");
    expect(prompts).not.toContain(KEY);
    expect(opened).toHaveLength(1);
    const files = JSON.stringify(opened[0]?.references);
    expect(files).toContain("[redacted:API_KEY]");
    expect(files).not.toContain(KEY);
    expect(JSON.stringify(await world.events("run_fix_secret"))).not.toContain(KEY);
  });
});
