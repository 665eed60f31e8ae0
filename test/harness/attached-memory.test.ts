/**
 * Issue 18, "hashed but inert": `memory.attached` stores are mounted at `/mnt/memory/<id>` in the
 * planner's bash, read-only or read-write as declared. Through the real path: the run object, its
 * alarm, the isolate sandbox (just-bash + Worker Loader) and the D1 memory store.
 */
import { env } from "cloudflare:workers";
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import { D1MemoryStore } from "../../src/adapters/d1/d1-memory-store.ts";
import { catalogOf } from "../../src/engine/run-environment.ts";
import { summarizeTicketDefinition } from "../../src/examples/support-summarize-ticket.ts";
import { memoryMounts } from "../../src/harness/session-memory.ts";
import { attachedMemoryStoreId } from "../../src/ports/memory-store.ts";
import { defineWorkflow, type WorkflowDefinitionInput } from "../../src/sdk/define-workflow.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { driveToEnd, runStub } from "../support/drive.ts";
import { resolverFor, result, scriptedWorker, seedLwirFor, toolResults } from "../support/scripted-models.ts";

const INPUT = { ticketId: "T-1", transcript: "Customer cannot log in since Monday." };

afterEach(() => overrideWiring({}));

type Seen = { exitCode: number; stdout: string; stderr: string };

/** A planner that runs one bash command, records what it printed, then submits the seed's LWIR. */
function plannerRunning(command: string) {
  const seen: Seen[] = [];
  const model = new MockLanguageModelV4({
    provider: "openai.responses",
    modelId: "gpt-5",
    doGenerate: async (options: LanguageModelV4CallOptions) => {
      const done = toolResults(options);
      if (done.length === 0)
        return result([{ type: "tool-call", toolCallId: "call-bash-1", toolName: "bash", input: JSON.stringify({ command }) }]);
      seen.push((done[0]?.output as { value: Seen } | undefined)?.value as Seen);
      return result([
        { type: "tool-call", toolCallId: "call-submit-2", toolName: "submit_lwir", input: JSON.stringify({ lwir: seedLwirFor(options) }) },
      ]);
    },
  });
  return { model, seen };
}

function workflowWith(id: string, memory: WorkflowDefinitionInput["memory"]) {
  return defineWorkflow({ ...summarizeTicketDefinition, id, memory });
}

/** Runs `workflow` in its run object (tenant `tenant`) with a planner running `command`; returns what bash printed. */
async function runIn(workflow: ReturnType<typeof workflowWith>, command: string, tenant = "default"): Promise<Seen> {
  const planner = plannerRunning(command);
  overrideWiring({ models: resolverFor(planner.model, scriptedWorker()), workflows: catalogOf([{ definition: workflow, tools: {} }]) });
  const runId = `run_attached_${crypto.randomUUID().slice(0, 8)}`;
  await runStub(runId, tenant).start({ runId, workflowId: workflow.id, input: INPUT, tenant, trigger: { kind: "http" } });
  const view = await driveToEnd(runId, 40, tenant);
  expect(view.status, JSON.stringify(view)).toBe("completed");
  expect(planner.seen).toHaveLength(1);
  return planner.seen[0] as Seen;
}

describe("memory.attached: mounted at /mnt/memory/<id> (run object, isolate sandbox, D1)", () => {
  it("an ro store is readable and refuses writes (EROFS); an rw store persists across runs and workflows of the tenant", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const tenant = `mem${tag}`;
    const kb = `kb${tag}`;
    const notes = `notes${tag}`;
    const store = new D1MemoryStore(env.DB);
    await store.save(attachedMemoryStoreId(tenant, kb), { "refunds.md": "Refunds over $500 need a manager.\n" });
    const memory = {
      attached: [
        { id: kb, mode: "ro" as const },
        { id: notes, mode: "rw" as const },
      ],
    };

    const first = await runIn(
      workflowWith(`support.attached-a-${tag}`, memory),
      `cat /mnt/memory/${kb}/refunds.md; (echo hacked > /mnt/memory/${kb}/refunds.md); echo "ro=$?"; echo '- seen T-1' >> /mnt/memory/${notes}/log.md; echo "rw=$?"`,
      tenant,
    );
    expect(first.stdout).toBe("Refunds over $500 need a manager.\nro=1\nrw=0\n");
    expect(first.stderr).toMatch(new RegExp(`EROFS: read-only file system.*/mnt/memory/${kb}/refunds\\.md`));
    expect(await store.load(attachedMemoryStoreId(tenant, kb))).toEqual({ "refunds.md": "Refunds over $500 need a manager.\n" });
    expect(await store.load(attachedMemoryStoreId(tenant, notes))).toEqual({ "log.md": "- seen T-1\n" });

    // Another workflow of the same tenant that attaches the same id sees what the first wrote.
    const second = await runIn(
      workflowWith(`support.attached-b-${tag}`, memory),
      `cat /mnt/memory/${notes}/log.md; ls /mnt/memory`,
      tenant,
    );
    expect(second.stdout).toBe(`- seen T-1\n${[kb, notes, "org", "workflow"].sort().join("\n")}\n`);

    // Another tenant attaching the same ids gets its own (empty) stores.
    const other = await runIn(
      workflowWith(`support.attached-a-${tag}`, memory),
      `ls -A /mnt/memory/${kb} /mnt/memory/${notes}`,
      `${tenant}x`,
    );
    expect(other.stdout).toBe(`/mnt/memory/${kb}:\n\n/mnt/memory/${notes}:\n`);
  });
});

describe("memoryMounts", () => {
  it("adds each attached store at /mnt/memory/<id>, per tenant, in its mode, after the workflow and org stores", () => {
    expect(
      memoryMounts(
        {
          workflow: "none",
          org: "ro",
          attached: [
            { id: "kb", mode: "ro" },
            { id: "Runbooks.v2", mode: "rw" },
          ],
        },
        { workflowId: "support.x", tenant: "acme" },
      ),
    ).toEqual([
      { path: "/mnt/memory/org", storeId: "org:acme", mode: "ro" },
      { path: "/mnt/memory/kb", storeId: "attached:acme:kb", mode: "ro" },
      { path: "/mnt/memory/Runbooks.v2", storeId: "attached:acme:Runbooks.v2", mode: "rw" },
    ]);
  });
});
