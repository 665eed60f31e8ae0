import { env } from "cloudflare:workers";
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { D1MemoryStore } from "../../../src/adapters/d1/d1-memory-store.ts";
import { IsolateSandbox } from "../../../src/adapters/sandbox-isolate/isolate-sandbox.ts";
import { runWorkflow } from "../../../src/engine/run-workflow.ts";
import { summarizeTicketDefinition } from "../../../src/examples/support-summarize-ticket.ts";
import { defineWorkflow, type WorkflowDefinitionInput } from "../../../src/sdk/define-workflow.ts";
import { MemoryWorld } from "../../../src/worlds/memory-world.ts";
import { resolverFor, result, scriptedWorker, seedLwirFor, toolResults } from "../../support/scripted-models.ts";

const INPUT = { ticketId: "T-1", transcript: "Customer cannot log in since Monday." };

/** A planner that runs one bash command, records what it printed, then submits the seed's LWIR. */
function plannerRunning(command: string) {
  const seen: { exitCode: number; stdout: string; stderr: string }[] = [];
  const model = new MockLanguageModelV4({
    provider: "openai.responses",
    modelId: "gpt-5",
    doGenerate: async (options: LanguageModelV4CallOptions) => {
      const done = toolResults(options);
      if (done.length === 0)
        return result([{ type: "tool-call", toolCallId: "call-bash-1", toolName: "bash", input: JSON.stringify({ command }) }]);
      const output = done[0]?.output as { type: string; value: { exitCode: number; stdout: string; stderr: string } };
      seen.push(output.value);
      return result([
        { type: "tool-call", toolCallId: "call-submit-2", toolName: "submit_lwir", input: JSON.stringify({ lwir: seedLwirFor(options) }) },
      ]);
    },
  });
  return { model, seen };
}

function workflowWith(id: string, memory?: WorkflowDefinitionInput["memory"]) {
  return defineWorkflow({ ...summarizeTicketDefinition, id, ...(memory ? { memory } : {}) });
}

/** A world whose planner is swapped per run (the world keeps logs, versions and memory). */
function plannedWorld(options: { sandbox?: IsolateSandbox } = {}) {
  let planner = plannerRunning("true").model;
  const worker = scriptedWorker();
  const world = new MemoryWorld({ models: { resolve: (r) => resolverFor(planner, worker).resolve(r) }, ...options });
  return {
    world,
    async run(workflow: ReturnType<typeof workflowWith>, command: string, options: { tenant?: string; runId?: string } = {}) {
      const next = plannerRunning(command);
      planner = next.model;
      const r = await runWorkflow(workflow, INPUT, { world, ...options });
      expect(r.cause).toBeUndefined();
      expect(r.status).toBe("completed");
      return next.seen;
    },
  };
}

// A failed redirect ends the enclosing list in just-bash, so the refused write runs in a subshell.
const WRITE_LESSON =
  "echo '- Cite the ticket id in the summary.' >> /mnt/memory/workflow/lessons.md; (echo leak > /mnt/memory/org/leak.md); echo \"org write exit=$?\"";
const READ_LESSON = "cat /mnt/memory/workflow/lessons.md; ls -A /mnt/memory/org";

describe("planner memory across runs (memory mounts persisted by the bash tool)", () => {
  it("a lesson written in one run is there in the next run of the workflow; the ro org mount refuses writes", async () => {
    const { world, run } = plannedWorld();
    const workflow = workflowWith("support.memory-lessons");
    const [first] = await run(workflow, WRITE_LESSON, { runId: "run_memory_1" });
    expect(first?.stdout).toBe("org write exit=1\n");
    expect(first?.stderr).toMatch(/EROFS: read-only file system.*\/mnt\/memory\/org\/leak\.md/);
    const [second] = await run(workflow, READ_LESSON);
    expect(second).toEqual({ exitCode: 0, stdout: "- Cite the ticket id in the summary.\n", stderr: "", turnsLeft: 15 });
    expect(await world.memory.load("workflow:default:support.memory-lessons")).toEqual({
      "lessons.md": "- Cite the ticket id in the summary.\n",
    });
    expect(await world.memory.load("org:default")).toEqual({});
    // Replaying the first run reruns no bash call, so the lesson is not appended twice.
    await run(workflow, "echo should-not-run >> /mnt/memory/workflow/lessons.md", { runId: "run_memory_1" });
    expect((await world.memory.load("workflow:default:support.memory-lessons"))["lessons.md"]).toBe(
      "- Cite the ticket id in the summary.\n",
    );
  });

  it("mounts the tenant's org memory read-only and keeps workflows and tenants apart", async () => {
    const { world, run } = plannedWorld();
    await world.memory.save("org:acme", { "policy.md": "Escalate outages to on-call.\n" });
    await world.memory.save("workflow:default:support.other", { "lessons.md": "not mine\n" });
    const [seen] = await run(workflowWith("support.memory-org"), "cat /mnt/memory/org/policy.md; ls -A /mnt/memory/workflow", {
      tenant: "acme",
    });
    expect(seen).toEqual({ exitCode: 0, stdout: "Escalate outages to on-call.\n", stderr: "", turnsLeft: 15 });
    const [other] = await run(workflowWith("support.memory-org"), "ls -A /mnt/memory/org", { tenant: "globex" });
    expect(other?.stdout).toBe("");
  });

  it("follows the definition's memory modes: workflow ro refuses, org rw persists, none mounts nothing", async () => {
    const { world, run } = plannedWorld();
    const [seen] = await run(
      workflowWith("support.memory-modes", { workflow: "ro", org: "rw" }),
      '(echo x > /mnt/memory/workflow/x.md); echo "wf=$?"; echo shared > /mnt/memory/org/shared.md; echo "org=$?"',
      { tenant: "acme" },
    );
    expect(seen?.stdout).toBe("wf=1\norg=0\n");
    expect(await world.memory.load("workflow:default:support.memory-modes")).toEqual({});
    expect(await world.memory.load("org:acme")).toEqual({ "shared.md": "shared\n" });
    const [none] = await run(workflowWith("support.memory-none", { workflow: "none", org: "none" }), "ls -A /mnt/memory");
    expect(none?.stdout).toBe("");
  });

  it("with the D1 store and the isolate sandbox (as the Worker wires them), and node in the planner's bash", async () => {
    const id = `support.memory-d1-${crypto.randomUUID().slice(0, 8)}`;
    const store = new D1MemoryStore(env.DB);
    const { run } = plannedWorld({ sandbox: new IsolateSandbox({ loader: env.LOADER, memory: store }) });
    const workflow = workflowWith(id);
    await run(workflow, `node -e 'console.log("- lesson from node")' >> /mnt/memory/workflow/lessons.md`);
    const [second] = await run(workflow, "cat /mnt/memory/workflow/lessons.md");
    expect(second).toEqual({ exitCode: 0, stdout: "- lesson from node\n", stderr: "", turnsLeft: 15 });
    expect(await store.load(`workflow:default:${id}`)).toEqual({ "lessons.md": "- lesson from node\n" });
  });
});
