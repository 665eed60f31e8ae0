import { jsonSchema, Output } from "ai";
import type { Digest } from "../identity/digest.ts";
import type { AiGenerateStep } from "../lwir/types.ts";
import type { CallableModel } from "../ports/model-resolver.ts";
import { schemaOfOutputMode } from "../schema/normalize-output-mode.ts";
import { validateJson } from "../schema/validate-json.ts";
import type { ModelSlotRef } from "./durable-model.ts";
import type { HarnessContext } from "./harness-context.ts";
import { runSession, type SessionOutcome } from "./run-session.ts";

export type WorkerSessionSpec = {
  readonly sessionId: string;
  readonly stepPath: string;
  readonly cycle: number;
  readonly step: AiGenerateStep;
  readonly prompt: string;
  readonly system?: string;
  readonly manifest: Record<string, unknown>;
  readonly manifestHash: Digest;
  readonly model: CallableModel;
  readonly slot: ModelSlotRef;
};

/**
 * A worker session for an `ai.generate` step (task kind `execute_step`): one model call with the
 * step's output mode as AI SDK structured output, the result validated against the step schema.
 */
export async function runWorkerSession(spec: WorkerSessionSpec, ctx: HarnessContext): Promise<SessionOutcome> {
  const output = spec.step.output;
  const schema = schemaOfOutputMode(output);
  return runSession(
    {
      sessionId: spec.sessionId,
      role: "worker",
      kind: "execute_step",
      manifest: spec.manifest,
      manifestHash: spec.manifestHash,
      stepPath: spec.stepPath,
      cycle: spec.cycle,
      model: spec.model,
      slot: spec.slot,
      system: spec.system ?? "",
      prompt: spec.prompt,
      ...(output.mode === "text" ? {} : { output: structuredOutput(output) }),
      interpret: (result) => {
        // A worker step has no tools: an answer that still calls some is not an answer, whatever
        // text comes with it (closed, as generateText's missing structured output was).
        const called = result.steps.at(-1)?.toolCalls ?? [];
        if (called.length > 0) {
          return {
            ok: false,
            causeCode: "model_error",
            message: `The model answered ${spec.stepPath} with calls to tools a worker step does not have (${called.map((c) => c.toolName).join(", ")})`,
          };
        }
        const value = output.mode === "text" ? result.text : result.output;
        if (schema !== undefined) {
          const check = validateJson(schema, value, "step.output_invalid");
          if (!check.valid) {
            return {
              ok: false,
              causeCode: "step_failed",
              message: `The output of ${spec.stepPath} does not match its schema: ${check.findings.map((f) => `${f.path}: ${f.message}`).join("; ")}`,
            };
          }
        }
        return { ok: true, output: value };
      },
    },
    ctx,
  );
}

function structuredOutput(output: AiGenerateStep["output"]) {
  switch (output.mode) {
    case "object":
      return Output.object({ schema: jsonSchema(output.schema as object) });
    case "array": {
      const items = (typeof output.schema === "object" ? output.schema.items : undefined) ?? {};
      return Output.array({ element: jsonSchema(items as object) });
    }
    case "choice":
      return Output.choice({ options: [...output.values] });
    case "json":
      return output.schema === undefined ? Output.json() : Output.object({ schema: jsonSchema(output.schema as object) });
    default:
      return Output.text();
  }
}
