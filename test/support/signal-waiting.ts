import { openai } from "@ai-sdk/openai";
import { z } from "zod";
import type { RegisteredWorkflow } from "../../src/engine/run-environment.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";
import { stepsLwir } from "./wait-lwir.ts";

/** A workflow whose runs wait for the signal `go` (given their LWIR: see {@link signalWaitLwir}). */
export function signalWaitingWorkflow(id: string): RegisteredWorkflow {
  return {
    definition: defineWorkflow({
      id,
      description: "Waits for a signal.",
      input: z.object({}),
      output: z.looseObject({}),
      models: [model(openai("gpt-4o-mini"), { description: "Unused." })],
      planner: { model: openai("gpt-5"), system: "Plan a wait." },
      signals: { go: { schema: z.looseObject({}), description: "Lets the run go on" } },
    }),
    tools: {},
  };
}

/** One `wait.signal` step for `go`, ten minutes before it times out. */
export function signalWaitLwir(workflow: RegisteredWorkflow): Promise<Record<string, unknown>> {
  return stepsLwir(workflow, [{ id: "wait", uses: "wait.signal", with: { signals: ["go"], timeoutMs: 600_000 } }]);
}
