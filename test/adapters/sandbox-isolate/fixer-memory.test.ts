import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { MemoryEventLog } from "../../../src/adapters/memory/memory-event-log.ts";
import { MemoryMemoryStore } from "../../../src/adapters/memory/memory-memory-store.ts";
import { JustBashSandbox } from "../../../src/adapters/sandbox-isolate/just-bash-sandbox.ts";
import { type FixerSessionSpec, runFixerSession } from "../../../src/harness/fixer-session.ts";
import type { HarnessContext } from "../../../src/harness/harness-context.ts";
import { Journal } from "../../../src/harness/journal.ts";
import { digestJson } from "../../../src/json/digest.ts";
import type { MemoryStore } from "../../../src/ports/memory-store.ts";
import { result, toolResults } from "../../support/scripted-models.ts";

const FIXED = "export function run() { return { ok: true }; }";

/** A fixer that runs one bash command, records its result, then submits a fix. */
function fixerRunning(command: string) {
  const seen: { stdout: string; stderr: string }[] = [];
  const model = new MockLanguageModelV4({
    provider: "mock",
    modelId: "fixer",
    doGenerate: async (options) => {
      const done = toolResults(options);
      if (done.length === 0)
        return result([{ type: "tool-call", toolCallId: "fix-bash", toolName: "bash", input: JSON.stringify({ command }) }]);
      const output = done[0]?.output as { value: { stdout: string; stderr: string } } | undefined;
      if (output) seen.push(output.value);
      return result([{ type: "tool-call", toolCallId: "fix-submit", toolName: "submit_fix", input: JSON.stringify({ source: FIXED }) }]);
    },
  });
  return { model, seen };
}

async function fix(command: string, memory: FixerSessionSpec["memory"], store: MemoryStore) {
  const log = new MemoryEventLog(`run_fixer_${crypto.randomUUID()}`, { now: () => 1_800_000_000_000 });
  await log.append([
    { type: "RunRequested", payload: { workflowId: "code.score", input: {}, trigger: { kind: "programmatic" }, tenant: "acme" } },
  ]);
  const ctx: HarnessContext = {
    runId: log.runId,
    log,
    journal: new Journal(await log.all()),
    clock: { now: () => 1_800_000_000_000 },
    deadline: Number.POSITIVE_INFINITY,
    sleep: async () => {},
  };
  const fixer = fixerRunning(command);
  const manifest = { role: "fixer" };
  const outcome = await runFixerSession(
    {
      sessionId: "fixer:s:a1:f1",
      stepPath: "s",
      cycle: 1,
      task: {
        kind: "fix_step",
        stepPath: "s",
        entrypoint: "score.ts",
        source: "broken",
        error: { code: "code_threw", message: "x", logs: [] },
        input: {},
        outputSchema: null,
      },
      system: "fix it",
      manifest,
      manifestHash: digestJson(manifest),
      model: fixer.model,
      slot: { id: "fixer", providerId: "mock", modelId: "fixer", offline: false },
      sandbox: new JustBashSandbox({ memory: store }),
      ...(memory ? { memory } : {}),
    },
    ctx,
  );
  expect(outcome).toMatchObject({ ok: true, fixedSource: FIXED });
  return fixer.seen[0];
}

describe("fixer sessions and memory", () => {
  it("with the definition's modes, the fixer's bash saves rw workflow memory and reads ro org memory", async () => {
    const store = new MemoryMemoryStore();
    await store.save("org:acme", { "policy.md": "no network in code\n" });
    const seen = await fix(
      "echo '- score.ts: use input.signals' >> /mnt/memory/workflow/fixes.md; cat /mnt/memory/org/policy.md",
      { workflow: "rw", org: "ro" },
      store,
    );
    expect(seen?.stdout).toBe("no network in code\n");
    expect(await store.load("workflow:acme:code.score")).toEqual({ "fixes.md": "- score.ts: use input.signals\n" });
  });

  it("without modes (a caller that does not pass the definition's config) nothing is mounted", async () => {
    const store = new MemoryMemoryStore();
    const seen = await fix("ls -A /mnt/memory", undefined, store);
    expect(seen?.stdout).toBe("");
  });
});
