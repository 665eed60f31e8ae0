/**
 * Issue 18, "hashed but inert": `worker.skills` reach worker sessions — their frontmatter in the
 * system prompt and their bodies in the worker's bash at `.agents/skills/<name>/SKILL.md`, as the
 * planner gets them. Through the real path: the run object, its alarm, the isolate sandbox.
 */
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import { catalogOf } from "../../src/engine/run-environment.ts";
import { summarizeTicketDefinition } from "../../src/examples/support-summarize-ticket.ts";
import { skillFrontmatter } from "../../src/harness/skill-prompt.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { type Skill, skill } from "../../src/sdk/skill.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { driveToEnd, runStub } from "../support/drive.ts";
import { resolverFor, result, scriptedPlanner, toolResults } from "../support/scripted-models.ts";

const INPUT = { ticketId: "T-1", transcript: "Customer cannot log in since Monday." };
const ANSWER = { summary: "Login broken since Monday.", severity: "high" };
const GRADING = skill({ name: "grading", description: "How we grade severity", body: "# Grading\nA login outage is high.\n" });

afterEach(() => overrideWiring({}));

type WorkerCall = { system: string; tools: string[]; bashOutput?: { exitCode: number; stdout: string; stderr: string } };

/** A worker that, when it has bash, reads the grading skill first; it records what each call saw. */
function skillReadingWorker() {
  const calls: WorkerCall[] = [];
  const model = new MockLanguageModelV4({
    provider: "openai.chat",
    modelId: "gpt-4o-mini",
    doGenerate: async (options: LanguageModelV4CallOptions) => {
      const system = options.prompt.find((m) => m.role === "system");
      const tools = (options.tools ?? []).map((t) => t.name);
      const done = toolResults(options);
      const bashOutput = (done[0]?.output as { value?: WorkerCall["bashOutput"] } | undefined)?.value;
      calls.push({ system: typeof system?.content === "string" ? system.content : "", tools, ...(bashOutput ? { bashOutput } : {}) });
      if (tools.includes("bash") && done.length === 0)
        return result([
          {
            type: "tool-call",
            toolCallId: "call-bash-1",
            toolName: "bash",
            input: JSON.stringify({ command: "cat .agents/skills/grading/SKILL.md" }),
          },
        ]);
      return result([{ type: "text", text: JSON.stringify(ANSWER) }]);
    },
  });
  return { model, calls };
}

async function runWith(skills: readonly Skill[]) {
  const workflow = defineWorkflow({
    ...summarizeTicketDefinition,
    id: `support.worker-skills-${skills.length}`,
    worker: { skills: [...skills] },
  });
  const worker = skillReadingWorker();
  overrideWiring({ models: resolverFor(scriptedPlanner(), worker.model), workflows: catalogOf([{ definition: workflow, tools: {} }]) });
  const runId = `run_worker_skills_${crypto.randomUUID().slice(0, 8)}`;
  await runStub(runId).start({ runId, workflowId: workflow.id, input: INPUT, trigger: { kind: "http" } });
  const view = await driveToEnd(runId);
  return { view, calls: worker.calls };
}

describe("worker.skills reach worker sessions (run object, isolate sandbox)", () => {
  it("a worker sees the skills' frontmatter in its system prompt and reads a body in bash at .agents/skills/<name>/SKILL.md", async () => {
    const { view, calls } = await runWith([GRADING]);
    expect(view.status, JSON.stringify(view)).toBe("completed");
    expect(view.output).toEqual(ANSWER);
    expect(calls).toHaveLength(2);
    expect(calls[0]?.tools).toEqual(["bash"]);
    expect(calls[0]?.system).toContain(skillFrontmatter([GRADING]));
    expect(calls[0]?.system).toContain("- grading: How we grade severity (read: cat .agents/skills/grading/SKILL.md)");
    expect(calls[1]?.bashOutput).toEqual({
      exitCode: 0,
      stdout: "---\nname: grading\ndescription: How we grade severity\n---\n# Grading\nA login outage is high.\n",
      stderr: "",
    });
  });

  it("a worker without skills is still one call with no tools (the request recorded histories replay)", async () => {
    const { view, calls } = await runWith([]);
    expect(view.status).toBe("completed");
    expect(calls).toHaveLength(1);
    expect(calls[0]?.tools).toEqual([]);
    expect(calls[0]?.system).not.toContain("Skills");
  });
});
