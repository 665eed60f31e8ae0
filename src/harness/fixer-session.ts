import { hasToolCall, jsonSchema, type StopCondition, type ToolSet } from "ai";
import { type Digest, digestText } from "../json/digest.ts";
import type { CallableModel } from "../ports/model-resolver.ts";
import { BASH_TOOL, FIX_TASK_CLOSE, FIX_TASK_OPEN, type FixTask, SUBMIT_FIX_TOOL } from "../ports/planner-protocol.ts";
import type { Sandbox, SandboxSession } from "../ports/sandbox.ts";
import { bashTool } from "./bash-tool.ts";
import type { ModelSlotRef } from "./durable-model.ts";
import type { HarnessTool } from "./durable-tools.ts";
import type { HarnessContext } from "./harness-context.ts";
import { type LoopResult, runSession, type SessionOutcome } from "./run-session.ts";
import { type MemoryModes, sessionMemoryMounts } from "./session-memory.ts";

const MAX_FIXER_TURNS = 12;

export type FixerSessionSpec = {
  readonly sessionId: string;
  readonly stepPath: string;
  readonly cycle: number;
  readonly task: FixTask;
  readonly system: string;
  readonly manifest: Record<string, unknown>;
  readonly manifestHash: Digest;
  readonly model: CallableModel;
  readonly slot: ModelSlotRef;
  readonly sandbox: Sandbox;
  /** The definition's memory modes; without them the fixer's bash mounts no memory. */
  readonly memory?: MemoryModes;
};

/**
 * A fixer harness session (role `fixer`, task kind `fix_step`): the model sees the failed code,
 * its error and the output schema, may test in bash scratch, and submits a repaired entrypoint with
 * `submit_fix`. The repaired source is recorded in `harness.session.completed.fixedSource`, so a
 * replay runs the recorded fix without calling the fixer again.
 */
export async function runFixerSession(spec: FixerSessionSpec, ctx: HarnessContext): Promise<SessionOutcome> {
  let session: SandboxSession | null = null;
  const openSandbox = async () => {
    session ??= await spec.sandbox.openSession({
      sessionId: spec.sessionId,
      skills: [],
      references: {
        [`/mnt/task/${spec.task.entrypoint}`]: spec.task.source,
        "/mnt/task/fix-task.json": JSON.stringify(spec.task, null, 2),
      },
      scratch: ctx.journal.sessionRecord(spec.sessionId)?.scratch ?? {},
      memory: await sessionMemoryMounts(ctx, spec.memory),
    });
    return session;
  };
  const tools: Record<string, HarnessTool> = {
    [BASH_TOOL]: bashTool("Run a bash command in your scratch directory. The failed code is at /mnt/task.", openSandbox, ctx),
    [SUBMIT_FIX_TOOL]: {
      description: `Submit the repaired content of ${spec.task.entrypoint}: a module exporting run({ input }) whose return value matches the output schema.`,
      inputSchema: jsonSchema({
        type: "object",
        properties: { source: { type: "string" } },
        required: ["source"],
        additionalProperties: false,
      }),
      execute: async (input) => ({ received: typeof (input as { source?: unknown }).source === "string" }),
    },
  };
  const stopWhen: StopCondition<ToolSet>[] = [hasToolCall(SUBMIT_FIX_TOOL), ({ steps }) => steps.length >= MAX_FIXER_TURNS];
  return runSession(
    {
      sessionId: spec.sessionId,
      role: "fixer",
      kind: "fix_step",
      manifest: spec.manifest,
      manifestHash: spec.manifestHash,
      stepPath: spec.stepPath,
      cycle: spec.cycle,
      model: spec.model,
      slot: spec.slot,
      system: `${spec.system}\n\nYou repair one failed code.run step of a Little Workflow run. Submit the whole repaired file with ${SUBMIT_FIX_TOOL}.`,
      prompt: `Repair this code.\n${FIX_TASK_OPEN}\n${JSON.stringify(spec.task, null, 2)}\n${FIX_TASK_CLOSE}`,
      tools,
      stopWhen,
      interpret: (result) => interpretFix(result, spec.task),
    },
    ctx,
  );
}

/**
 * What a completed fixer session records: the failure it repaired and the digests of the file
 * before and after, so the event log alone shows the repair (the attempt that failed happens
 * inside the step attempt and has no event of its own).
 */
export type FixOutput = {
  readonly entrypointReplaced: true;
  readonly entrypoint: string;
  readonly failure: { readonly code: string; readonly message: string };
  readonly sourceSha256: Digest;
  readonly fixedSha256: Digest;
};

function interpretFix(result: LoopResult, task: FixTask): SessionOutcome {
  for (const step of [...result.steps].reverse()) {
    for (const call of step.toolCalls) {
      if (call.toolName !== SUBMIT_FIX_TOOL) continue;
      const source = (call.input as { source?: unknown }).source;
      if (typeof source !== "string") continue;
      const output: FixOutput = {
        entrypointReplaced: true,
        entrypoint: task.entrypoint,
        failure: { code: task.error.code, message: task.error.message },
        sourceSha256: digestText(task.source),
        fixedSha256: digestText(source),
      };
      return { ok: true, output, fixedSource: source };
    }
  }
  return { ok: false, causeCode: "step_failed", message: `The fixer stopped after ${result.steps.length} turns without submitting a fix` };
}
