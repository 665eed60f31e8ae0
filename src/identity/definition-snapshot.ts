import { type Digest, digestJson, digestText } from "../json/digest.ts";
import { type NormalizedOutputMode, normalizeOutputMode, schemaOfOutputMode } from "../schema/normalize-output-mode.ts";
import { type JsonSchema, normalizeSchema, SCHEMA_NORMALIZER, type SchemaNormalizerId } from "../schema/normalize-schema.ts";
import type { AuthoredPlan } from "../sdk/authored-plan.ts";
import type { MemoryConfig, WorkflowDefinition } from "../sdk/define-workflow.ts";
import { WorkflowCalleeMissingError } from "../sdk/errors/workflow-callee-missing-error.ts";
import { modelIdentity } from "../sdk/model.ts";
import { sortedSignals } from "../sdk/signals.ts";
import type { Skill } from "../sdk/skill.ts";
import type { ToolRegistry } from "../sdk/tool.ts";
import { LWIR_VALIDATOR_ID, type LwirValidatorId } from "./lwir-validator-id.ts";
import { type ModelOverrides, overriddenIdentity } from "./model-overrides.ts";
import { type ResolvedModelSlot, resolveModelSlots, slotBaseName } from "./model-slots.ts";
import { resolveTools, type ToolDescriptor } from "./tool-descriptors.ts";

/**
 * The view of a definition the planner receives and the definition hash covers (compile stage 3,
 * docs/architecture.md). Extends the specification's shape with `tools` (each tool's descriptor: description and schemas) and
 * `requestedOutputMode`, so changing a tool's description or the output mode changes the hash.
 */
export type WorkflowDefinitionSnapshot = {
  readonly id: string;
  readonly description: string;
  readonly inputSchemaHash: Digest;
  readonly outputSchemaHash: Digest;
  readonly requestedOutputMode: NormalizedOutputMode["mode"];
  readonly modelSlots: readonly ResolvedModelSlot[];
  readonly plannerConfig: {
    readonly modelSlotId: string;
    readonly providerId: string;
    readonly modelId: string;
    readonly harnessId: string;
    readonly systemHash: Digest;
    readonly skillsHash: Digest;
    readonly maxRevisions: number;
  };
  readonly workerConfig: { readonly harnessId: string; readonly skillsHash: Digest };
  /** Sorted ids of every tool the workflow may use (inline and global). */
  readonly globalTools: readonly string[];
  readonly tools: readonly ToolDescriptor[];
  readonly memoryConfig: MemoryConfig;
  /** Cycles of the outer loop (1 when there is none). */
  readonly maxOuterCycles: number;
  /** Where the runs' data must stay (`{}` when anywhere). */
  readonly placement: { readonly jurisdiction?: string };
  /** Hosts code may reach, sorted. */
  readonly network: readonly string[];
  /**
   * The fields below are present only when authored, so a definition that never set them keeps
   * the hash it had before they existed (docs/lineage.md: a projection omits an unauthored policy).
   */
  readonly approval?: "required";
  /** Tools every plan must call on every path (sorted), docs/lwir.md "Required tools". */
  readonly requiredTools?: readonly string[];
  /** Secret names the workflow binds, sorted. */
  readonly secrets?: readonly string[];
  /** Secret names code.run steps with `sandbox.env: "allow"` may receive, sorted (docs/sandbox.md). */
  readonly sandboxEnv?: readonly string[];
  readonly section?: {
    readonly kind: "onTrigger";
    readonly onBodyFailure?: "end" | "continue";
    readonly maxOccurrences?: number;
    /** Only when authored: a definition without it hashes as before it existed. */
    readonly occurrenceTimeoutMs?: number;
  };
  /** The author's plan (`defineWorkflow({ plan })`), as written: the offline model submits it, a real planner is shown it. */
  readonly plan?: AuthoredPlan;
  /**
   * The signals a run may wait for (`wait.signal`), sorted by name, each with its normalized payload
   * schema (shown to the planner and to a person sending one) and that schema's hash. Only when declared.
   */
  readonly signals?: readonly SignalDescriptor[];
  /**
   * The workflows it may call (`workflow.run`), sorted by id, each with its definition hash (the
   * seed's OrchestratorManifest: "references each available workflow's hash"): a callee whose
   * definition changes changes this hash, so a caller's run in flight fails closed with `capability_drift`.
   */
  readonly workflows?: readonly { readonly id: string; readonly definitionHash: Digest }[];
};

/** A declared signal as the snapshot holds it. */
export type SignalDescriptor = {
  readonly name: string;
  readonly description: string;
  readonly schema: JsonSchema;
  readonly schemaHash: Digest;
};

/** A callee as its caller's plans see it: what to call it with and what it gives back. */
export type CalleeCapabilities = {
  readonly id: string;
  readonly description: string;
  readonly definitionHash: Digest;
  readonly inputSchema: JsonSchema;
  readonly outputSchema: JsonSchema;
  readonly requestedOutput: NormalizedOutputMode;
};

/**
 * A definition resolved against a tool registry: its snapshot, the snapshot's hash, and the
 * normalized schemas (kept beside the snapshot, which holds only their hashes).
 */
export type DefinitionCapabilities = {
  readonly snapshot: WorkflowDefinitionSnapshot;
  readonly definitionHash: Digest;
  readonly inputSchema: JsonSchema;
  readonly requestedOutput: NormalizedOutputMode;
  readonly outputSchema: JsonSchema;
  /** How the schemas were normalized (not hashed: `@1` and `@2` agree wherever order never varied). */
  readonly schemaNormalizer: SchemaNormalizerId;
  /** Which LWIR validator judges plans against it (not hashed: the run keeps the one it started with). */
  readonly lwirValidator: LwirValidatorId;
  /** The callees' schemas (the snapshot holds only their hashes), by id order; [] when it calls none. */
  readonly callees: readonly CalleeCapabilities[];
};

/**
 * Normalizes a definition's schemas, resolves its slots and tools, and hashes the snapshot. Throws
 * `WorkflowMissingToolError` when a global tool is not in `registry`.
 *
 * `overrides` (from `LITTLE_MODEL_<SLOT>` vars, built by the wiring) replace a slot's provider and
 * model, so a deployment that points a slot elsewhere has another definition hash: pinned versions
 * and in-flight runs see that as drift, exactly like a code change. Slot ids stay those derived
 * from the authored models. Throws `ModelConfigInvalidError` for a slot whose override is unusable.
 *
 * `normalizer` is the run's schema normalizer (docs/identity.md): a run started before schemas
 * were order-free passes `little-workflow-schema@1` and gets the hashes it was started with.
 *
 * @example
 * const caps = await snapshotDefinition(summarizeTicket, {});
 * caps.definitionHash // "sha256:…", stable until the definition changes
 */
export async function snapshotDefinition(
  definition: WorkflowDefinition,
  registry: ToolRegistry = {},
  overrides?: ModelOverrides,
  normalizer: SchemaNormalizerId = SCHEMA_NORMALIZER,
  /** The declared callees' capabilities (the engine resolves them from the registry, definition-capabilities.ts). */
  given: readonly DefinitionCapabilities[] = [],
): Promise<DefinitionCapabilities> {
  const callees = calleesOf(definition, given);
  const input = await normalizeSchema(definition.input, "input", `${definition.id}.input`, normalizer);
  const requestedOutput = await normalizeOutputMode(definition.output, `${definition.id}.output`, normalizer);
  const outputSchema = schemaOfOutputMode(requestedOutput) ?? true;
  const tools = await resolveTools(definition, registry, normalizer);
  const signals = await signalDescriptors(definition, normalizer);
  const authoredPlanner = modelIdentity(definition.planner.model);
  const plannerSlotId = slotBaseName(authoredPlanner.modelId);
  const planner = overriddenIdentity(overrides, plannerSlotId, authoredPlanner);
  const snapshot: WorkflowDefinitionSnapshot = {
    id: definition.id,
    description: definition.description,
    inputSchemaHash: input.hash,
    outputSchemaHash: digestJson(outputSchema),
    requestedOutputMode: requestedOutput.mode,
    modelSlots: resolveModelSlots(definition.models).map((slot) => withOverride(slot, overrides)),
    plannerConfig: {
      modelSlotId: plannerSlotId,
      providerId: planner.providerId,
      modelId: planner.modelId,
      harnessId: definition.planner.harness,
      systemHash: digestText(definition.planner.system),
      skillsHash: skillsHash(definition.planner.skills),
      maxRevisions: definition.planner.maxRevisions,
    },
    workerConfig: { harnessId: definition.worker.harness, skillsHash: skillsHash(definition.worker.skills) },
    globalTools: tools.map((t) => t.id),
    tools,
    memoryConfig: {
      workflow: definition.memory.workflow,
      org: definition.memory.org,
      attached: [...definition.memory.attached].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    },
    maxOuterCycles: definition.outerLoop?.maxCycles ?? 1,
    placement: definition.placement.jurisdiction ? { jurisdiction: definition.placement.jurisdiction } : {},
    network: [...definition.network],
    ...(definition.requireApproval ? { approval: "required" as const } : {}),
    ...((definition.requiredTools?.length ?? 0) > 0 ? { requiredTools: [...(definition.requiredTools ?? [])] } : {}),
    ...(definition.secrets.length > 0 ? { secrets: [...definition.secrets] } : {}),
    // Optional: definitions written before it (or hand-built without it) keep their hash.
    ...((definition.sandbox?.env.length ?? 0) > 0 ? { sandboxEnv: [...(definition.sandbox?.env ?? [])] } : {}),
    ...(definition.onTrigger ? { section: sectionOf(definition.onTrigger) } : {}),
    ...(definition.plan !== undefined ? { plan: definition.plan } : {}),
    ...(signals.length > 0 ? { signals } : {}),
    ...(callees.length > 0 ? { workflows: callees.map((c) => ({ id: c.id, definitionHash: c.definitionHash })) } : {}),
  };
  return {
    snapshot,
    definitionHash: digestJson(snapshot),
    inputSchema: input.schema,
    requestedOutput,
    outputSchema,
    schemaNormalizer: normalizer,
    lwirValidator: LWIR_VALIDATOR_ID,
    callees,
  };
}

/** Each declared signal with its payload schema normalized as the input is (data coming in). */
async function signalDescriptors(definition: WorkflowDefinition, normalizer: SchemaNormalizerId): Promise<SignalDescriptor[]> {
  const out: SignalDescriptor[] = [];
  for (const [name, declared] of sortedSignals(definition.signals)) {
    const normalized = await normalizeSchema(declared.schema, "input", `${definition.id}.signals.${name}`, normalizer);
    out.push({ name, description: declared.description, schema: normalized.schema, schemaHash: normalized.hash });
  }
  return out;
}

/** Each declared callee's capabilities, in id order; a declared callee not given cannot be hashed. */
function calleesOf(definition: WorkflowDefinition, given: readonly DefinitionCapabilities[]): CalleeCapabilities[] {
  const declared = definition.workflows ?? [];
  const byId = new Map(given.map((c) => [c.snapshot.id, c]));
  const missing = declared.filter((id) => !byId.has(id));
  if (missing.length > 0) throw new WorkflowCalleeMissingError(definition.id, missing);
  return declared.map((id) => {
    const c = byId.get(id) as DefinitionCapabilities;
    return {
      id,
      description: c.snapshot.description,
      definitionHash: c.definitionHash,
      inputSchema: c.inputSchema,
      outputSchema: c.outputSchema,
      requestedOutput: c.requestedOutput,
    };
  });
}

function withOverride(slot: ResolvedModelSlot, overrides: ModelOverrides | undefined): ResolvedModelSlot {
  const { providerId, modelId } = overriddenIdentity(overrides, slot.id, slot);
  return { ...slot, providerId, modelId };
}

function sectionOf(config: NonNullable<WorkflowDefinition["onTrigger"]>): NonNullable<WorkflowDefinitionSnapshot["section"]> {
  return {
    kind: "onTrigger",
    ...(config.onBodyFailure !== undefined ? { onBodyFailure: config.onBodyFailure } : {}),
    ...(config.maxOccurrences !== undefined ? { maxOccurrences: config.maxOccurrences } : {}),
    ...(config.occurrenceTimeoutMs !== undefined ? { occurrenceTimeoutMs: config.occurrenceTimeoutMs } : {}),
  };
}

/** Digest of a skill set; order-independent (skills sort by name). */
export function skillsHash(skills: readonly Skill[]): Digest {
  const sorted = [...skills].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return digestJson(sorted.map((s) => ({ name: s.name, description: s.description, body: s.body })));
}
