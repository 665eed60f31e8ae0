import { openai } from "@ai-sdk/openai";
import { z } from "zod";
import { catalogOf, type RegisteredWorkflow, type WorkflowCatalog } from "../../src/engine/run-environment.ts";
import { type BodyFailurePolicy, defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";
import { tool } from "../../src/sdk/tool.ts";
import { toolCallLwir } from "./tool-call-lwir.ts";

/** Calls of the echo tool by text, across every test of a file (module state survives aborts). */
export const echoCalls = new Map<string, number>();

/**
 * A section workflow whose body is one `echo` tool call: `{ text, fail }` in, `{ echoed }` out; a
 * payload with `fail: true` makes the occurrence fail (not retried).
 */
export function sectionWorkflow(
  id: string,
  onBodyFailure?: BodyFailurePolicy,
  maxOccurrences?: number,
  occurrenceTimeoutMs?: number,
): RegisteredWorkflow {
  return {
    definition: defineWorkflow({
      id,
      description: "Echo each trigger's text.",
      input: z.object({ text: z.string(), fail: z.boolean() }),
      output: z.object({ echoed: z.string() }),
      models: [model(openai("gpt-4o-mini"), { description: "Unused by the body." })],
      planner: { model: openai("gpt-5"), system: "Plan an echo." },
      tools: {
        echo: tool({
          description: "Echo a text, or fail when asked to",
          inputSchema: z.object({ text: z.string(), fail: z.boolean() }),
          outputSchema: z.object({ echoed: z.string() }),
          execute: async ({ text, fail }: { text: string; fail: boolean }) => {
            echoCalls.set(text, (echoCalls.get(text) ?? 0) + 1);
            if (fail) throw Object.assign(new Error(`asked to fail on "${text}"`), { retriable: false });
            return { echoed: text.toUpperCase() };
          },
        }),
      },
      onTrigger: {
        ...(onBodyFailure ? { onBodyFailure } : {}),
        ...(maxOccurrences ? { maxOccurrences } : {}),
        ...(occurrenceTimeoutMs ? { occurrenceTimeoutMs } : {}),
      },
      // Takes webhooks addressed to its runs (tests sign with the shared local LITTLE_WEBHOOK_SECRET).
      webhook: { secret: "SECTION_WEBHOOK_SECRET" },
    }),
    tools: {},
  };
}

/** The section body as LWIR (no planner needed): one tool.call step bound to the workflow. */
export function sectionLwir(workflow: RegisteredWorkflow): Promise<Record<string, unknown>> {
  return toolCallLwir(workflow, "echo", { text: "{{ input.text }}", fail: "{{ input.fail }}" });
}

/** Section workflows under every policy, by id. */
export function sectionCatalog(): WorkflowCatalog {
  return catalogOf([
    sectionWorkflow("section.default"),
    sectionWorkflow("section.end", "end"),
    sectionWorkflow("section.continue", "continue"),
    sectionWorkflow("section.three", "continue", 3),
  ]);
}
