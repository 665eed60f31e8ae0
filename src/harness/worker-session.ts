import { jsonSchema, Output, stepCountIs } from "ai";
import type { Digest } from "../json/digest.ts";
import type { AiGenerateStep } from "../lwir/types.ts";
import type { CallableModel } from "../ports/model-resolver.ts";
import { BASH_TOOL } from "../ports/planner-protocol.ts";
import type { Sandbox, SandboxSession } from "../ports/sandbox.ts";
import { schemaOfOutputMode } from "../schema/normalize-output-mode.ts";
import { validateJson } from "../schema/validate-json.ts";
import type { Skill } from "../sdk/skill.ts";
import { bashTool } from "./bash-tool.ts";
import type { ModelSlotRef } from "./durable-model.ts";
import type { HarnessTool } from "./durable-tools.ts";
import type { HarnessContext } from "./harness-context.ts";
import { type LoopResult, runSession, type SessionOutcome } from "./run-session.ts";
import { skillFrontmatter } from "./skill-prompt.ts";

/** Turns a worker with skills may take: reading skills in bash, then the answer. */
const MAX_WORKER_TURNS = 8;

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
  /**
   * The definition's `worker.skills`: their frontmatter goes into the system prompt and their
   * bodies into the session's bash at `.agents/skills/<name>/SKILL.md`, as for the planner.
   */
  readonly skills?: readonly Skill[];
  /** Where that bash runs; needed when there are skills. */
  readonly sandbox?: Sandbox;
};

/**
 * A worker session for an `ai.generate` step (task kind `execute_step`): the step's output mode as
 * AI SDK structured output, the result validated against the step schema. Without skills it is one
 * model call with no tools. With skills the model also gets `bash` (the skills under
 * `.agents/skills`) and up to {@link MAX_WORKER_TURNS} turns; its last turn must answer.
 */
export async function runWorkerSession(spec: WorkerSessionSpec, ctx: HarnessContext): Promise<SessionOutcome> {
  const output = spec.step.output;
  const schema = schemaOfOutputMode(output);
  const skilled = workerSkills(spec, ctx);
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
      system: skilled ? skilled.system : (spec.system ?? ""),
      prompt: spec.prompt,
      ...(skilled ? { tools: skilled.tools, stopWhen: stepCountIs(MAX_WORKER_TURNS) } : {}),
      ...(output.mode === "text" ? {} : { output: structuredOutput(output) }),
      interpret: (result) => {
        const unanswered = unansweredCalls(result, spec.stepPath, skilled !== undefined);
        if (unanswered) return unanswered;
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

/** The bash tool and the system prompt of a worker with skills; `undefined` without skills (no tools, as before skills reached workers). */
function workerSkills(
  spec: WorkerSessionSpec,
  ctx: HarnessContext,
): { readonly system: string; readonly tools: Readonly<Record<string, HarnessTool>> } | undefined {
  const skills = spec.skills ?? [];
  const sandbox = spec.sandbox;
  if (skills.length === 0 || !sandbox) return undefined;
  let session: SandboxSession | null = null;
  const open = async () => {
    session ??= await sandbox.openSession({
      sessionId: spec.sessionId,
      skills,
      scratch: ctx.journal.sessionRecord(spec.sessionId)?.scratch ?? {},
      // Workers read skills; memory stays the planner's and the fixer's (docs/sandbox.md).
      memory: [],
    });
    return session;
  };
  const author = spec.system ?? "";
  return {
    system: `${author}${author ? "\n\n" : ""}Skills (bash runs in /mnt/scratch/own; read a skill before you rely on it):\n${skillFrontmatter(skills)}`,
    tools: {
      [BASH_TOOL]: bashTool("Run a bash command in your scratch directory (/mnt/scratch/own). Skills are under .agents/skills.", open, ctx),
    },
  };
}

/**
 * A last turn that still calls tools is not an answer, whatever text comes with it (closed, as
 * generateText's missing structured output was): a worker without skills has no tools at all, one
 * with skills ran out of turns.
 */
function unansweredCalls(result: LoopResult, stepPath: string, skilled: boolean): SessionOutcome | undefined {
  const called = result.steps.at(-1)?.toolCalls ?? [];
  if (called.length === 0) return undefined;
  return {
    ok: false,
    causeCode: "model_error",
    message: skilled
      ? `The model did not answer ${stepPath} within ${MAX_WORKER_TURNS} turns (its last turn called ${called.map((c) => c.toolName).join(", ")})`
      : `The model answered ${stepPath} with calls to tools a worker step does not have (${called.map((c) => c.toolName).join(", ")})`,
  };
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
