import { jsonSchema, type StopCondition, type ToolSet } from "ai";
import type { DefinitionCapabilities } from "../identity/definition-snapshot.ts";
import { validatorVersion } from "../identity/lwir-validator-id.ts";
import type { PlannerManifest } from "../identity/planner-manifest.ts";
import type { Digest } from "../json/digest.ts";
import { checkLwir } from "../lwir/check-lwir.ts";
import { lwirJsonSchema, providerLwirSchema } from "../lwir/lwir-json-schema.ts";
import { lwirReferenceMarkdown } from "../lwir/lwir-reference.ts";
import { promptedKinds, type StepKind } from "../lwir/types.ts";
import type { CallableModel } from "../ports/model-resolver.ts";
import { BASH_TOOL, SUBMIT_LWIR_TOOL as SUBMIT_TOOL } from "../ports/planner-protocol.ts";
import type { Sandbox, SandboxSession } from "../ports/sandbox.ts";
import type { Finding } from "../sdk/finding.ts";
import type { Skill } from "../sdk/skill.ts";
import { bashTool } from "./bash-tool.ts";
import type { ModelSlotRef } from "./durable-model.ts";
import type { HarnessTool } from "./durable-tools.ts";
import type { HarnessContext } from "./harness-context.ts";
import { lwirCheckCommand } from "./lwir-check-command.ts";
import { parseDraft } from "./parse-draft.ts";
import {
  allowedSubmissions,
  LWIR_CHECK_COMMAND,
  type OuterLoopContext,
  plannerSystemPrompt,
  plannerUserPrompt,
  planTask,
  TASK_FILES,
} from "./planner-prompt.ts";
import { type LoopResult, runSession, type SessionOutcome } from "./run-session.ts";
import { sessionMemoryMounts } from "./session-memory.ts";

/** Model turns a planner session may take; the prompt states it and tool results count it down. */
export const MAX_PLANNER_TURNS = 16;

/** What `submit_lwir` answers; `remainingRevisions` counts the submissions still allowed after this one. */
export type SubmitResult = { readonly accepted: boolean; readonly findings: readonly Finding[]; readonly remainingRevisions: number };

export type PlannerSessionSpec = {
  readonly sessionId: string;
  readonly cycle: number;
  readonly manifest: PlannerManifest;
  readonly manifestHash: Digest;
  readonly capabilities: DefinitionCapabilities;
  readonly input: unknown;
  readonly outerLoopContext?: OuterLoopContext;
  readonly system: string;
  readonly skills: readonly Skill[];
  readonly model: CallableModel;
  readonly slot: ModelSlotRef;
  readonly sandbox: Sandbox;
};

/**
 * The planner harness session (compile stage 6, docs/architecture.md): an agent loop with `bash`
 * in its scratch directory and a terminal `submit_lwir`, which validates the draft and binds it to
 * the snapshot. Findings go back to the model, which repairs within the same session until a draft
 * is accepted or the revision budget is spent (`planner_validation_exhausted`): `maxRevisions`
 * revisions after the first draft, so `maxRevisions + 1` submissions in all. Output: `{ lwir }`.
 */
export async function runPlannerSession(spec: PlannerSessionSpec, ctx: HarnessContext): Promise<SessionOutcome> {
  const maxRevisions = spec.capabilities.snapshot.plannerConfig.maxRevisions;
  const budget = allowedSubmissions(maxRevisions);
  const task = planTask(spec.capabilities, spec.input, spec.outerLoopContext);
  // The run's validator picks which kinds the contract shows (a run planned under @1 or @2 keeps its bytes);
  // workflow.run is shown only to a definition that declares callees.
  const kinds = promptedKinds(validatorVersion(spec.capabilities.lwirValidator), { callees: spec.capabilities.callees.length > 0 });
  let session: SandboxSession | null = null;
  const openSandbox = async () => {
    session ??= await spec.sandbox.openSession({
      sessionId: spec.sessionId,
      skills: spec.skills,
      references: {
        [TASK_FILES.task]: JSON.stringify(task, null, 2),
        [TASK_FILES.schema]: JSON.stringify(lwirJsonSchema(kinds), null, 2),
        [TASK_FILES.reference]: lwirReferenceMarkdown(kinds),
      },
      commands: [lwirCheckCommand(spec.capabilities)],
      scratch: ctx.journal.sessionRecord(spec.sessionId)?.scratch ?? {},
      memory: await sessionMemoryMounts(ctx, spec.capabilities.snapshot.memoryConfig),
    });
    return session;
  };
  const tools: Record<string, HarnessTool> = {
    [BASH_TOOL]: bashTool(
      `Run a bash command in your scratch directory (/mnt/scratch/own). The task is ${TASK_FILES.task}, the LWIR field reference ${TASK_FILES.reference}, its JSON Schema ${TASK_FILES.schema}; \`${LWIR_CHECK_COMMAND} <file>\` checks a draft against this task without spending a revision.${
        spec.skills.length > 0 ? " Skills are under .agents/skills." : ""
      }${spec.capabilities.snapshot.memoryConfig ? " Memory is under /mnt/memory." : ""}`,
      openSandbox,
      ctx,
    ),
    [SUBMIT_TOOL]: submitLwirTool(spec, ctx, budget, kinds),
  };
  for (const name of Object.keys(tools)) tools[name] = countingTurns(tools[name] as HarnessTool);
  const stopWhen: StopCondition<ToolSet> = ({ steps }) => {
    const submissions = submissionsOf(steps);
    return (
      submissions.some((s) => s.result.accepted) ||
      submissions.filter((s) => !s.result.accepted).length >= budget ||
      steps.length >= MAX_PLANNER_TURNS
    );
  };
  return runSession(
    {
      sessionId: spec.sessionId,
      role: "planner",
      kind: "plan",
      manifest: spec.manifest as unknown as Record<string, unknown>,
      manifestHash: spec.manifestHash,
      cycle: spec.cycle,
      model: spec.model,
      slot: spec.slot,
      // The run's validator picks the prompt's rule lines: a run planned under @1 replays with its own bytes.
      system: plannerSystemPrompt(spec.system, spec.skills, maxRevisions, spec.capabilities.lwirValidator, MAX_PLANNER_TURNS, kinds),
      prompt: plannerUserPrompt(task, spec.capabilities.lwirValidator),
      tools,
      stopWhen,
      interpret: (result) => interpretPlannerResult(result, budget),
    },
    ctx,
  );
}

/**
 * A tool whose (object) results say how many turns the session has left after this one, with a
 * warning on the last two, so a model never learns the budget only by being cut off.
 */
export function countingTurns(tool: HarnessTool): HarnessTool {
  return {
    ...tool,
    execute: async (input, meta) => {
      const result = await tool.execute(input, meta);
      if (typeof result !== "object" || result === null || Array.isArray(result)) return result;
      const turnsLeft = Math.max(0, MAX_PLANNER_TURNS - meta.turn);
      const warning =
        turnsLeft <= 2
          ? {
              warning: `Only ${turnsLeft} turn${turnsLeft === 1 ? "" : "s"} left: submit_lwir your best draft now; the session ends when turns run out.`,
            }
          : {};
      return { ...result, turnsLeft, ...warning };
    },
  };
}

/**
 * `submit_lwir`: validates and binds a draft and answers every finding; the full LWIR schema is
 * its parameter schema. Rejections are counted from the journal, so a re-issued in-flight
 * submission sees the replayed ones.
 */
function submitLwirTool(spec: PlannerSessionSpec, ctx: HarnessContext, budget: number, kinds: readonly StepKind[]): HarnessTool {
  return {
    description: `Submit the LWIR document as the lwir argument (the object, not a string). Answers { accepted, findings, remainingRevisions }; when not accepted, every finding is listed with its path: fix them all and submit again. ${budget} submissions in all.`,
    // The full LWIR schema in the form every provider's tool calling accepts. Not enforced by
    // the SDK (no `validate`): a draft that misses it gets findings, which teach more than a
    // schema error, and counts against the budget like any rejected draft.
    inputSchema: jsonSchema({
      type: "object",
      properties: { lwir: providerLwirSchema(kinds) as Record<string, unknown> },
      required: ["lwir"],
      additionalProperties: false,
    }),
    execute: async (input) => {
      const submitted = (input as { lwir?: unknown }).lwir;
      const parsed =
        typeof submitted === "string" ? asStringSubmission(parseDraft(submitted)) : { ok: true as const, value: submitted, findings: [] };
      const draft = parsed.ok ? parsed.value : undefined;
      const findings = parsed.ok
        ? [...parsed.findings, ...checkDraft(draft, spec.capabilities), ...secretLiteralFindings(draft, ctx)]
        : [...parsed.findings];
      const accepted = findings.every((f) => f.severity !== "error");
      // Counted from the journal, so a re-issued in-flight submission sees the replayed ones.
      const priorRejections = ctx.journal
        .finishedToolCalls(spec.sessionId, SUBMIT_TOOL)
        .filter((r) => (r.succeeded?.result as SubmitResult | undefined)?.accepted === false).length;
      // This submission counts whether accepted or not: remainingRevisions is always what is left after it.
      const result: SubmitResult = { accepted, findings, remainingRevisions: Math.max(0, budget - priorRejections - 1) };
      return result;
    },
  };
}

/**
 * A draft that carries the value of a bound secret (in any form the redactor knows) is refused: a
 * version is stored and served as written, and the log would hold a redacted copy that no longer
 * compiles to it. Tools receive secrets through `permissions.secrets`, never as literals.
 */
function secretLiteralFindings(draft: unknown, ctx: HarnessContext): Finding[] {
  if (!ctx.redact || draft === undefined) return [];
  if (JSON.stringify(ctx.redact.value(draft)) === JSON.stringify(draft)) return [];
  return [
    {
      severity: "error",
      code: "planner.secret_literal",
      path: "$",
      message: "The draft contains the value of a secret. Name the secret in permissions.secrets; the tool receives it at run time.",
    },
  ];
}

/** Every finding about a draft: structure, templates, graph and binding, in one pass. */
export function checkDraft(lwir: unknown, capabilities: DefinitionCapabilities): Finding[] {
  return checkLwir(lwir, capabilities);
}

/** A document sent as a JSON string is read, with a warning that says to send the object. */
function asStringSubmission(parsed: ReturnType<typeof parseDraft>): ReturnType<typeof parseDraft> {
  if (!parsed.ok || parsed.findings.length > 0) return parsed;
  return {
    ...parsed,
    findings: [
      {
        severity: "warning",
        code: "submission.string_not_object",
        path: "$",
        message: 'lwir was a JSON string; it was parsed. Send the object itself: submit_lwir({ "lwir": { … } }).',
      },
    ],
  };
}

type Submission = { lwir: unknown; result: SubmitResult };

function submissionsOf(steps: LoopResult["steps"]): Submission[] {
  const out: Submission[] = [];
  for (const step of steps) {
    for (const r of step.toolResults) {
      if (r.toolName !== SUBMIT_TOOL) continue;
      const submitted = (r.input as { lwir?: unknown }).lwir;
      const parsed = typeof submitted === "string" ? parseDraft(submitted) : null;
      out.push({ lwir: parsed ? (parsed.ok ? parsed.value : undefined) : submitted, result: r.output as SubmitResult });
    }
  }
  return out;
}

function interpretPlannerResult(result: LoopResult, budget: number): SessionOutcome {
  const submissions = submissionsOf(result.steps);
  const accepted = submissions.find((s) => s.result.accepted);
  if (accepted) return { ok: true, output: { lwir: accepted.lwir } };
  const rejected = submissions.filter((s) => !s.result.accepted).length;
  if (rejected >= budget) {
    return {
      ok: false,
      causeCode: "planner_validation_exhausted",
      message: `The planner submitted ${rejected} invalid LWIR drafts; ${budget} submissions are allowed (a first draft and ${budget - 1} revisions).`,
    };
  }
  return {
    ok: false,
    causeCode: "planner_no_lwir",
    message: `The planner stopped after ${result.steps.length} turns without submitting valid LWIR.`,
  };
}
