import type { LanguageModel } from "ai";
import type { ZodType } from "zod";
import { type AuthoredPlan, checkAuthoredPlan } from "./authored-plan.ts";
import { calleeIds, checkCallees } from "./callees.ts";
import {
  type AttachedMemory,
  checkHarnesses,
  checkMemory,
  checkSandbox,
  checkSkills,
  type Fail,
  type MemoryConfig,
  type SandboxConfig,
} from "./check-runtime-config.ts";
import { WorkflowDefinitionError } from "./errors/workflow-definition-error.ts";
import type { Finding } from "./finding.ts";
import {
  type ConcurrencyInput,
  type ConcurrencyLimit,
  concurrencyLimitsOf,
  flowControlFindings,
  type ThrottleLimit,
} from "./flow-control.ts";
import { DEFAULT_HARNESS_ID } from "./harness-ids.ts";
import { childPath } from "./json-path.ts";
import type { ModelPricing, ModelSlotDeclaration } from "./model.ts";
import { SECRET_NAME_PATTERN, SLOT_ID_PATTERN, TOOL_ID_PATTERN, WORKFLOW_ID_PATTERN } from "./names.ts";
import { checkOuterLoop, checkSection, type OnTriggerConfig, type OuterLoopConfig } from "./run-shapes.ts";
import { parseSchedule, type Schedule, type ScheduleInput } from "./schedule.ts";
import { checkSignals, type SignalDeclaration } from "./signals.ts";
import type { Skill } from "./skill.ts";
import type { ToolDefinition } from "./tool.ts";

export type { AttachedMemory, MemoryConfig, MemoryMode, SandboxConfig } from "./check-runtime-config.ts";
/** The harness the planner and workers run in; part of the manifest, so a change is drift. */
export { DEFAULT_HARNESS_ID } from "./harness-ids.ts";
export { SECRET_NAME_PATTERN, SKILL_NAME_PATTERN, SLOT_ID_PATTERN, TOOL_ID_PATTERN, WORKFLOW_ID_PATTERN } from "./names.ts";
export type { BodyFailurePolicy, OnTriggerConfig, OuterLoopConfig, SuperviseDecision, SuperviseInput } from "./run-shapes.ts";
export type { SignalDeclaration } from "./signals.ts";

export type PlannerConfig = {
  /** The planner's own model, separate from the execution model slots. */
  readonly model: LanguageModel;
  readonly system: string;
  readonly skills?: readonly Skill[];
  readonly harness?: string;
  /** How many invalid LWIR drafts the planner may repair before the run fails. Default 3. */
  readonly maxRevisions?: number;
  /** USD per million tokens of the planner's model; without it planner calls have cost null. */
  readonly pricing?: ModelPricing;
};

export type WorkerConfig = { readonly harness?: string; readonly skills?: readonly Skill[] };

type InferSchema<S> = S extends ZodType<infer T> ? T : unknown;

/** Data residency: a jurisdiction keeps the workflow's run objects (and their logs) there. */
export type PlacementConfig = { readonly jurisdiction?: "eu" | "fedramp" };

/**
 * Runs started by Standard Webhooks deliveries (`POST /v1/hooks/:workflowId`); a workflow without
 * it takes no webhooks. `secret` names the Worker secret holding this workflow's own `whsec_…` key
 * (the shared `LITTLE_WEBHOOK_SECRET` stands in for it only in local development, so a delivery
 * signed for one workflow can't start another); `tenant` owns the runs (default
 * `LITTLE_WEBHOOK_TENANT`); `input` maps the delivery's JSON payload to the run input.
 */
export type WebhookConfig = {
  readonly secret: string;
  readonly tenant?: string;
  readonly input?: (payload: unknown) => unknown;
};

/** What a developer writes. Schemas may be zod 4, AI SDK schemas or JSON Schema. */
export type WorkflowDefinitionInput<TInputSchema = unknown, TOutputSchema = unknown> = {
  readonly id: string;
  readonly description: string;
  readonly input: TInputSchema;
  /** A schema, an AI SDK `Output.*` helper, or `{ mode, schema | values }`. */
  readonly output: TOutputSchema;
  readonly models: readonly ModelSlotDeclaration[];
  readonly planner: PlannerConfig;
  readonly worker?: WorkerConfig;
  /** Tools defined with the workflow, by id. */
  readonly tools?: Readonly<Record<string, ToolDefinition>>;
  /** Ids of tools the run's tool registry must provide. */
  readonly globalTools?: readonly string[];
  /** Tools every plan must call on every path through its decisions, or it is refused (docs/lwir.md, "Required tools"). */
  readonly requiredTools?: readonly string[];
  readonly memory?: Partial<Omit<MemoryConfig, "attached">> & { readonly attached?: readonly AttachedMemory[] };
  readonly outerLoop?: OuterLoopConfig;
  readonly placement?: PlacementConfig;
  readonly webhook?: WebhookConfig;
  /** Hosts code may reach (code.run with `network: "allow"`); LWIR may permit only these. */
  readonly network?: readonly string[];
  /** What code.run steps may be given: `env` names secrets (from `secrets`) that `sandbox.env: "allow"` passes (docs/sandbox.md). */
  readonly sandbox?: SandboxConfig;
  /** Steps of one run in flight at once (default 6, the production limit of outgoing connections per invocation). */
  readonly maxConcurrency?: number;
  /** The whole run's time limit, from its request; past it the run fails with `run_timeout`. */
  readonly timeoutMs?: number;
  /** Runs start only when this definition's hash was approved (`POST /v1/definitions/:hash/approve`). */
  readonly requireApproval?: boolean;
  /** Names of secrets (from the encrypted secret store) the workflow's tools may be given. */
  readonly secrets?: readonly string[];
  /** Makes the run a long-lived section serving many triggers (`input` is each trigger's payload). */
  readonly onTrigger?: OnTriggerConfig;
  /** Cron ticks that start runs: `"0 9 * * MON"`, `{ cron, tenant?, input? }` or a list (docs/triggers.md). */
  readonly schedule?: ScheduleInput;
  /** The plan you expect, as LWIR: the offline model runs it, a real planner is shown it as your suggestion (docs/testing.md). */
  readonly plan?: AuthoredPlan;
  /** Named messages a run may wait for (`wait.signal`), each `{ schema, description }` (docs/waits.md). */
  readonly signals?: Readonly<Record<string, SignalDeclaration>>;
  /**
   * Workflows its plans may call with a `workflow.run` step (definitions, or their ids), each run
   * as a child run. Every callee must be registered with it; a call cycle is refused (docs/lwir.md, "workflow.run").
   */
  readonly workflows?: readonly (WorkflowDefinition | string)[];
  /** Runs in flight at once per key, `{ limit, key? }` or a list of up to two; the rest queue (docs/flow-control.md). */
  readonly concurrency?: ConcurrencyInput;
  /** Run starts per window per key, `{ limit, periodMs, key? }`; the rest queue (docs/flow-control.md). */
  readonly throttle?: ThrottleLimit;
  /**
   * What the run's OpenTelemetry spans may carry (docs/observability.md). `recordContent: true`
   * adds model outputs and tool arguments and results (redacted as the log is; secrets never).
   * Not part of the definition hash: it changes what is exported, never what a run does.
   */
  readonly telemetry?: TelemetryConfig;
};

export type TelemetryConfig = { readonly recordContent?: boolean };

/** A defined workflow: the input with defaults applied. Pass it to `runWorkflow`. */
export type WorkflowDefinition<TInput = unknown, TOutput = unknown> = {
  readonly kind: "little.workflow";
  readonly id: string;
  readonly description: string;
  readonly input: unknown;
  readonly output: unknown;
  readonly models: readonly ModelSlotDeclaration[];
  readonly planner: Required<Omit<PlannerConfig, "skills" | "pricing">> & {
    readonly skills: readonly Skill[];
    readonly pricing?: ModelPricing;
  };
  readonly worker: { readonly harness: string; readonly skills: readonly Skill[] };
  readonly tools: Readonly<Record<string, ToolDefinition>>;
  readonly globalTools: readonly string[];
  /** Sorted; optional so definitions built by hand before it existed still type-check. */
  readonly requiredTools?: readonly string[];
  readonly memory: MemoryConfig;
  readonly outerLoop: OuterLoopConfig | null;
  readonly placement: PlacementConfig;
  readonly webhook: WebhookConfig | null;
  readonly network: readonly string[];
  /** Optional so definitions built by hand before it existed still type-check. */
  readonly sandbox?: { readonly env: readonly string[] };
  readonly maxConcurrency?: number;
  readonly timeoutMs?: number;
  readonly requireApproval: boolean;
  readonly secrets: readonly string[];
  readonly onTrigger: OnTriggerConfig | null;
  readonly schedule?: readonly Schedule[];
  readonly plan?: AuthoredPlan;
  /** Declared signals by name; present only when some are declared. */
  readonly signals?: Readonly<Record<string, SignalDeclaration>>;
  /** Ids of the workflows it may call (`workflow.run`), sorted; present only when it declares any. */
  readonly workflows?: readonly string[];
  /** Concurrency limits, as a list; absent when none (not hashed: docs/identity.md). */
  readonly concurrency?: readonly ConcurrencyLimit[];
  readonly throttle?: ThrottleLimit;
  readonly telemetry?: TelemetryConfig;
  /** Phantom types for inference only; never set at runtime. */
  readonly __types?: { input: TInput; output: TOutput };
};

/**
 * Defines a workflow. Checks the definition's shape at once (ids, descriptions, reserved slot
 * ids, tool names) and throws a {@link WorkflowDefinitionError} listing every problem.
 *
 * @example
 * const summarizeTicket = defineWorkflow({
 *   id: "support.summarize-ticket",
 *   description: "Summarize a support ticket and classify its severity.",
 *   input: z.object({ ticketId: z.string(), transcript: z.string() }),
 *   output: z.object({ summary: z.string(), severity: z.enum(["low", "medium", "high"]) }),
 *   models: [model(openai("gpt-4o-mini"), { description: "Fast model for short structured outputs." })],
 *   planner: { model: openai("gpt-5"), system: "You design support-ticket workflows." },
 * });
 */
export function defineWorkflow<TInputSchema, TOutputSchema>(
  definition: WorkflowDefinitionInput<TInputSchema, TOutputSchema>,
): WorkflowDefinition<InferSchema<TInputSchema>, InferSchema<TOutputSchema>> {
  const findings = checkDefinition(definition);
  if (findings.length > 0) throw new WorkflowDefinitionError(String(definition?.id), findings);
  checkHarnesses(definition);
  const schedule = parseSchedule(definition.id, definition.input, definition.schedule);
  const planner = definition.planner;
  return {
    kind: "little.workflow",
    id: definition.id,
    description: definition.description,
    input: definition.input,
    output: definition.output,
    models: [...definition.models],
    planner: {
      model: planner.model,
      system: planner.system,
      skills: [...(planner.skills ?? [])],
      harness: planner.harness ?? DEFAULT_HARNESS_ID,
      maxRevisions: planner.maxRevisions ?? 3,
      ...(planner.pricing !== undefined ? { pricing: planner.pricing } : {}),
    },
    worker: { harness: definition.worker?.harness ?? DEFAULT_HARNESS_ID, skills: [...(definition.worker?.skills ?? [])] },
    tools: { ...(definition.tools ?? {}) },
    globalTools: [...(definition.globalTools ?? [])],
    ...(definition.requiredTools?.length ? { requiredTools: [...new Set(definition.requiredTools)].sort() } : {}),
    memory: {
      workflow: definition.memory?.workflow ?? "rw",
      org: definition.memory?.org ?? "ro",
      attached: [...(definition.memory?.attached ?? [])],
    },
    outerLoop: definition.outerLoop ?? null,
    placement: { ...(definition.placement ?? {}) },
    webhook: definition.webhook ?? null,
    network: [...new Set(definition.network ?? [])].sort(),
    sandbox: { env: [...new Set(definition.sandbox?.env ?? [])].sort() },
    ...(definition.maxConcurrency !== undefined ? { maxConcurrency: definition.maxConcurrency } : {}),
    ...(definition.timeoutMs !== undefined ? { timeoutMs: definition.timeoutMs } : {}),
    requireApproval: definition.requireApproval === true,
    secrets: [...new Set(definition.secrets ?? [])].sort(),
    onTrigger: definition.onTrigger ? { ...definition.onTrigger } : null,
    ...(schedule ? { schedule } : {}),
    ...(definition.plan !== undefined ? { plan: definition.plan } : {}),
    ...(definition.signals && Object.keys(definition.signals).length > 0 ? { signals: { ...definition.signals } } : {}),
    ...(definition.workflows?.length ? { workflows: calleeIds(definition.workflows) } : {}),
    ...(definition.concurrency !== undefined ? { concurrency: concurrencyLimitsOf(definition.concurrency).map((c) => ({ ...c })) } : {}),
    ...(definition.throttle !== undefined ? { throttle: { ...definition.throttle } } : {}),
    ...(definition.telemetry !== undefined ? { telemetry: { recordContent: definition.telemetry.recordContent === true } } : {}),
  };
}

function checkDefinition(def: WorkflowDefinitionInput<unknown, unknown>): Finding[] {
  const findings: Finding[] = [];
  const fail = (path: string, code: string, message: string) => findings.push({ severity: "error", code, path, message });
  if (typeof def !== "object" || def === null) {
    fail("$", "definition.not_object", "defineWorkflow() takes an object");
    return findings;
  }
  if (typeof def.id !== "string" || !WORKFLOW_ID_PATTERN.test(def.id)) {
    fail(
      "$.id",
      "definition.invalid_id",
      "id must be 1–128 characters of a-z, 0-9, '.', '_' or '-', starting and ending with a letter or digit",
    );
  }
  if (typeof def.description !== "string" || def.description.trim() === "") {
    fail("$.description", "definition.missing_description", "description is required: the planner reads it");
  }
  if (def.input === undefined) fail("$.input", "definition.missing_input", "an input schema is required");
  if (def.output === undefined) fail("$.output", "definition.missing_output", "an output schema is required");
  checkModels(def.models, fail);
  checkPlanner(def.planner, fail);
  checkSkills(def.planner?.skills, "$.planner.skills", fail);
  checkSkills(def.worker?.skills, "$.worker.skills", fail);
  checkTools(def, fail);
  checkMemory(def.memory, fail);
  checkSandbox(def, fail);
  checkOuterLoop(def.outerLoop, fail);
  const jurisdiction = def.placement?.jurisdiction;
  if (jurisdiction !== undefined && jurisdiction !== "eu" && jurisdiction !== "fedramp") {
    fail("$.placement.jurisdiction", "definition.invalid_jurisdiction", 'placement.jurisdiction is "eu" or "fedramp"');
  }
  if (
    def.network !== undefined &&
    (!Array.isArray(def.network) || !def.network.every((h) => typeof h === "string" && /^[a-z0-9.*-]+(:\d+)?$/i.test(h)))
  ) {
    fail("$.network", "definition.invalid_network", "network lists host names (optionally with a port) code may reach");
  }
  if (def.maxConcurrency !== undefined && !(Number.isInteger(def.maxConcurrency) && def.maxConcurrency >= 1 && def.maxConcurrency <= 64)) {
    fail("$.maxConcurrency", "definition.invalid_max_concurrency", "maxConcurrency is an integer from 1 to 64");
  }
  if (def.timeoutMs !== undefined && !(Number.isInteger(def.timeoutMs) && def.timeoutMs >= 1 && def.timeoutMs <= 30 * 86_400_000)) {
    fail("$.timeoutMs", "definition.invalid_timeout", "timeoutMs is an integer number of ms from 1 to 30 days");
  }
  checkSection(def.onTrigger, def.outerLoop !== undefined, fail);
  checkAuthoredPlan(def.plan, fail);
  checkSignals(def.signals, fail);
  checkCallees(def, fail);
  findings.push(...flowControlFindings(def.concurrency, def.throttle));
  if (def.requireApproval !== undefined && typeof def.requireApproval !== "boolean")
    fail("$.requireApproval", "definition.invalid_require_approval", "requireApproval is true or false");
  if (
    def.secrets !== undefined &&
    (!Array.isArray(def.secrets) || !def.secrets.every((n) => typeof n === "string" && SECRET_NAME_PATTERN.test(n)))
  ) {
    fail("$.secrets", "definition.invalid_secrets", "secrets lists names of 1–64 of A-Z, 0-9 and '_', starting with a letter");
  }
  if (def.webhook !== undefined && (typeof def.webhook.secret !== "string" || !SECRET_NAME_PATTERN.test(def.webhook.secret))) {
    fail(
      "$.webhook.secret",
      "definition.invalid_webhook",
      'webhook.secret names the Worker secret holding the workflow\'s signing key: 1–64 of A-Z, 0-9 and "_", starting with a letter',
    );
  }
  if (def.webhook?.input !== undefined && typeof def.webhook.input !== "function") {
    fail("$.webhook.input", "definition.invalid_webhook", "webhook.input maps the payload to the run input: a function");
  }
  return findings;
}

function checkModels(models: unknown, fail: Fail): void {
  if (!Array.isArray(models) || models.length === 0) {
    fail("$.models", "definition.no_models", "at least one execution model slot is required: models: [model(...)]");
    return;
  }
  const explicit = new Set<string>();
  models.forEach((slot: ModelSlotDeclaration, i) => {
    const path = childPath("$.models", i);
    if (slot?.kind !== "little.model") {
      fail(path, "definition.invalid_model", "wrap each model with model(languageModel, { description })");
      return;
    }
    if (typeof slot.description !== "string" || slot.description.trim() === "") {
      fail(`${path}.description`, "definition.missing_model_description", "each model slot needs a description");
    }
    if (slot.id !== undefined) {
      if (!SLOT_ID_PATTERN.test(slot.id)) fail(`${path}.id`, "definition.invalid_slot_id", "slot ids are 1–64 of A-Z a-z 0-9 . _ -");
      else if (explicit.has(slot.id)) fail(`${path}.id`, "definition.duplicate_slot_id", `slot id "${slot.id}" is reserved twice`);
      explicit.add(slot.id);
    }
  });
}

function checkPlanner(planner: PlannerConfig | undefined, fail: Fail): void {
  if (typeof planner !== "object" || planner === null) {
    fail("$.planner", "definition.missing_planner", "a planner is required: planner: { model, system }");
    return;
  }
  if (planner.model === undefined || planner.model === null)
    fail("$.planner.model", "definition.missing_planner_model", "the planner needs a model");
  if (typeof planner.system !== "string" || planner.system.trim() === "") {
    fail("$.planner.system", "definition.missing_planner_system", "the planner needs a system prompt");
  }
  if (
    planner.maxRevisions !== undefined &&
    !(Number.isInteger(planner.maxRevisions) && planner.maxRevisions >= 1 && planner.maxRevisions <= 20)
  ) {
    fail("$.planner.maxRevisions", "definition.invalid_max_revisions", "maxRevisions is an integer from 1 to 20");
  }
}

function checkTools(def: WorkflowDefinitionInput<unknown, unknown>, fail: Fail): void {
  const inline = Object.keys(def.tools ?? {});
  for (const id of inline) {
    const path = childPath("$.tools", id);
    if (!TOOL_ID_PATTERN.test(id))
      fail(path, "definition.invalid_tool_id", "tool ids start with a letter and use letters, digits, '.', '_' or '-'");
    const t = def.tools?.[id];
    if (typeof t?.description !== "string" || t.description.trim() === "")
      fail(`${path}.description`, "definition.missing_tool_description", "each tool needs a description");
  }
  const globals = def.globalTools ?? [];
  const seen = new Set<string>(inline);
  globals.forEach((id, i) => {
    const path = childPath("$.globalTools", i);
    if (typeof id !== "string" || !TOOL_ID_PATTERN.test(id))
      fail(path, "definition.invalid_tool_id", "tool ids start with a letter and use letters, digits, '.', '_' or '-'");
    else if (seen.has(id)) fail(path, "definition.duplicate_tool", `tool "${id}" is named twice`);
    else seen.add(id);
  });
  (def.requiredTools ?? []).forEach((id, i) => {
    if (!seen.has(id))
      fail(
        childPath("$.requiredTools", i),
        "definition.unknown_required_tool",
        `requiredTools names "${id}", which is not a tool of the workflow`,
      );
  });
}
