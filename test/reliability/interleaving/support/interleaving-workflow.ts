import { openai } from "@ai-sdk/openai";
import { MockLanguageModelV4 } from "ai/test";
import { z } from "zod";
import type { RegisteredWorkflow } from "../../../../src/engine/run-environment.ts";
import { snapshotDefinition } from "../../../../src/identity/definition-snapshot.ts";
import { LWIR_API_VERSION, LWIR_KIND } from "../../../../src/lwir/types.ts";
import type { ModelResolver } from "../../../../src/ports/model-resolver.ts";
import { defineWorkflow } from "../../../../src/sdk/define-workflow.ts";
import { model } from "../../../../src/sdk/model.ts";
import { tool } from "../../../../src/sdk/tool.ts";
import { promptText, result } from "../../../support/scripted-models.ts";
import { CountingSink } from "../../durability/support/counting-sink.ts";

/** Where the body's side effect lands, by idempotency key (`<runId>:<stepPath>:a<attempt>`). */
export const sink = new CountingSink();

/** Model calls by prompt: each occurrence's text is unique, so a repeated prompt is a repeated call. */
export const modelCalls = new Map<string, number>();

let inFlight = 0;

/** Model calls in flight right now: a call answered while this is above 0 raced a pending model call. */
export function modelCallsInFlight(): number {
  return inFlight;
}

/** Texts starting with this need a person's approval before the sink runs. */
export const APPROVAL_PREFIX = "ap-";

/**
 * A section workflow ("continue" on failure): each trigger's `{ text }` goes to a slow model
 * (`think`), then to the `sink` tool, which needs approval for texts starting with `ap-`.
 */
export const interleavingWorkflow: RegisteredWorkflow = {
  definition: defineWorkflow({
    id: "interleave.section",
    description: "Think about each trigger's text, then record it.",
    input: z.object({ text: z.string() }),
    output: { mode: "json" },
    models: [model(openai("gpt-4o-mini"), { description: "Thinks slowly." })],
    planner: { model: openai("gpt-5"), system: "Unused: runs are started from LWIR." },
    tools: {
      sink: tool({
        description: "Record a text (some need approval)",
        inputSchema: z.object({ text: z.string() }),
        needsApproval: async (input: { text: string }) => input.text.startsWith(APPROVAL_PREFIX),
        execute: async ({ text }: { text: string }, options: { toolCallId?: string }) => {
          sink.deliver(options.toolCallId ?? `missing-key:${text}`);
          return { recorded: text };
        },
      }),
    },
    onTrigger: { onBodyFailure: "continue" },
  }),
  tools: {},
};

/** The section body as LWIR. */
export async function interleavingLwir(): Promise<Record<string, unknown>> {
  const caps = await snapshotDefinition(interleavingWorkflow.definition);
  return {
    apiVersion: LWIR_API_VERSION,
    kind: LWIR_KIND,
    metadata: { name: "interleave.section", version: "0.1.0", description: "think, then record" },
    input: { schema: caps.inputSchema },
    output: { schema: caps.outputSchema },
    permissions: { models: ["gpt-4o-mini"], tools: ["sink"], secrets: [], network: [] },
    steps: [
      {
        id: "think",
        uses: "ai.generate",
        needs: [],
        with: { model: "gpt-4o-mini", prompt: "Think about <text>{{ input.text }}</text>" },
        output: { mode: "json" },
      },
      {
        id: "sink",
        uses: "tool.call",
        needs: ["think"],
        with: { tool: "sink", input: { text: "{{ input.text }}" } },
        output: { mode: "json" },
      },
    ],
  };
}

/**
 * A model whose every call stays pending for `latencyMs(prompt)` (seeded), so API calls land while
 * model calls are in flight. It honours the abort signal, as a provider's fetch does.
 */
export function slowModel(latencyMs: (prompt: string) => number): ModelResolver {
  const worker = new MockLanguageModelV4({
    provider: "openai.chat",
    modelId: "gpt-4o-mini",
    doGenerate: async (options) => {
      const prompt = promptText(options);
      modelCalls.set(prompt, (modelCalls.get(prompt) ?? 0) + 1);
      inFlight++;
      try {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, latencyMs(prompt));
          options.abortSignal?.addEventListener("abort", () => {
            clearTimeout(timer);
            reject(options.abortSignal?.reason ?? new Error("aborted"));
          });
        });
      } finally {
        inFlight--;
      }
      return result([{ type: "text", text: JSON.stringify({ thought: prompt.length }) }]);
    },
  });
  return { resolve: () => ({ model: worker, offline: false }) };
}
