import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { z } from "zod";
import { MemorySealedRows } from "../../src/adapters/memory/memory-sealed-rows.ts";
import { SealedSecretStore } from "../../src/adapters/secrets/sealed-secret-store.ts";
import { summarizeTicketDefinition } from "../../src/examples/support-summarize-ticket.ts";
import { extractPlanTask, type PlanTask } from "../../src/harness/planner-prompt.ts";
import { defineWorkflow, type SuperviseDecision, type SuperviseInput } from "../../src/sdk/define-workflow.ts";
import { tool } from "../../src/sdk/tool.ts";
import { promptText, scriptedPlanner, seedLwirFor } from "./scripted-models.ts";

/**
 * An outer loop whose first plans fail and whose later plans work (docs/runs.md, the outer loop):
 * plan `lookup` calls the CRM tool, which fails and quotes its secret token in the error; plan
 * `summarize` is the seed's single ai.generate step. Shared by the engine and run-object tests.
 */

export const INPUT = { ticketId: "T-9", transcript: "The invoice was charged twice." };
export const CRM_TOKEN = "sk-live-outerloop-7f3a9c";
const SECRETS_KEY = btoa("R".repeat(32));

/** A secret store (the real sealed one, over memory rows) holding the CRM token for `tenant`. */
export async function secretsWithToken(tenant = "default"): Promise<SealedSecretStore> {
  const store = new SealedSecretStore(new MemorySealedRows(), SECRETS_KEY);
  await store.put(tenant, "CRM_TOKEN", CRM_TOKEN, 0);
  return store;
}

const TICKET_OUTPUT = z.object({ summary: z.string(), severity: z.enum(["low", "medium", "high"]) });

/** Calls of the CRM tool, for the replay checks. */
export const crmCalls: string[] = [];

/** Fails every time, quoting the token it was given (a badly written upstream error). */
const crm = tool({
  description: "Look a ticket up in the CRM",
  inputSchema: z.object({ ticketId: z.string() }),
  outputSchema: TICKET_OUTPUT,
  secrets: ["CRM_TOKEN"],
  execute: async ({ ticketId }: { ticketId: string }, options: { context?: { secrets?: Record<string, string> } }) => {
    crmCalls.push(ticketId);
    throw new Error(`CRM refused token ${options.context?.secrets?.CRM_TOKEN ?? "(none)"} for ${ticketId}`);
  },
});

/** The outer-loop workflow; every `supervise` call is kept. */
export function replanWorkflow(maxCycles: number, decide: (c: SuperviseInput) => SuperviseDecision) {
  const supervised: SuperviseInput[] = [];
  const definition = defineWorkflow({
    ...summarizeTicketDefinition,
    tools: { crm },
    secrets: ["CRM_TOKEN"],
    outerLoop: {
      maxCycles,
      supervise: (c) => {
        supervised.push(c);
        return decide(c);
      },
    },
  });
  return { definition, supervised };
}

/** The plan whose one step calls the failing CRM tool (`secrets`: what its permissions bind). */
export function lookupLwirFor(options: LanguageModelV4CallOptions, secrets: readonly string[] = ["CRM_TOKEN"]): Record<string, unknown> {
  const task = planTaskOf(options);
  return {
    ...seedLwirFor(options),
    permissions: { models: [], tools: ["crm"], secrets: [...secrets], network: [] },
    steps: [
      {
        id: "lookup",
        uses: "tool.call",
        needs: [],
        with: { tool: "crm", input: { ticketId: "{{ input.ticketId }}" } },
        output: task.requestedOutput,
      },
    ],
  };
}

export function planTaskOf(options: LanguageModelV4CallOptions): PlanTask {
  const task = extractPlanTask(promptText(options));
  if (!task) throw new Error("no <plan-task> in the planner's prompt");
  return task;
}

/** A planner whose plans for cycles in `failing` call the CRM tool; other cycles get the seed plan. */
export function replanPlanner(failing: readonly number[] = [1], secrets?: readonly string[]) {
  return scriptedPlanner([
    (options) =>
      failing.includes(planTaskOf(options).outerLoopContext?.cycleNumber ?? 1) ? lookupLwirFor(options, secrets) : seedLwirFor(options),
  ]);
}
