import { openai } from "@ai-sdk/openai";
import { z } from "zod";
import { EnvModelResolver } from "../../../../src/adapters/models/env-model-resolver.ts";
import { catalogOf, type RegisteredWorkflow } from "../../../../src/engine/run-environment.ts";
import { defineWorkflow } from "../../../../src/sdk/define-workflow.ts";
import { model } from "../../../../src/sdk/model.ts";
import { overrideWiring, type WiringOverrides } from "../../../../src/wiring.ts";
import { runStub } from "../../../support/drive.ts";
import { stepsLwir } from "../../../support/wait-lwir.ts";

/** A workflow that waits (for `manager.decision`, or a time), run from LWIR so no planner is involved. */
export const WAITING: RegisteredWorkflow = {
  definition: defineWorkflow({
    id: "crash.waits",
    description: "Waits.",
    input: z.object({}),
    output: z.looseObject({}),
    models: [model(openai("gpt-4o-mini"), { description: "Unused." })],
    planner: { model: openai("gpt-5"), system: "Unused." },
    signals: { "manager.decision": { schema: z.object({ approved: z.boolean() }), description: "The decision" } },
  }),
  tools: {},
};

/** Wires the waiting workflow, offline models and the crash hooks. */
export function wireWaits(hooks: Pick<WiringOverrides, "beforeAppend" | "afterAppend"> = {}): void {
  overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {} }), workflows: catalogOf([WAITING]), ...hooks });
}

/** Starts a run of the given steps in its run object. */
export async function startWaitRun(runId: string, steps: Record<string, unknown>[]): Promise<void> {
  await runStub(runId)
    .start({ runId, workflowId: WAITING.definition.id, input: {}, trigger: { kind: "lwir" }, lwir: await stepsLwir(WAITING, steps) })
    .catch(() => undefined);
}
