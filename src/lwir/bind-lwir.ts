import type { DefinitionCapabilities } from "../identity/definition-snapshot.ts";
import { digestJson } from "../identity/digest.ts";
import { normalizeJsonSchema } from "../schema/normalize-schema.ts";
import { LittleError } from "../sdk/errors/little-error.ts";
import type { Finding } from "../sdk/finding.ts";
import { childPath } from "../sdk/json-path.ts";
import { FindingSink } from "./findings-sink.ts";

/**
 * The binding pass (seed, stage 7): ties structurally valid LWIR to the definition it was compiled
 * for. Name, input and output schema hashes, permissions as subsets of the snapshot, and every
 * step's model and tool within the allowed sets. Run it after `validateLwir` finds no errors.
 *
 * @example
 * const findings = bindLwir(lwir, await snapshotDefinition(workflow, tools));
 */
export function bindLwir(lwir: unknown, capabilities: DefinitionCapabilities): Finding[] {
  const sink = new FindingSink();
  const doc = (lwir ?? {}) as Record<string, any>;
  const { snapshot } = capabilities;
  if (doc.metadata?.name !== snapshot.id) {
    sink.error("binding.workflow_name_mismatch", "$.metadata.name", `metadata.name must be "${snapshot.id}", the workflow's id`);
  }
  if (schemaHash(doc.input?.schema) !== snapshot.inputSchemaHash) sink.error("binding.input_schema_mismatch", "$.input.schema");
  if (schemaHash(doc.output?.schema) !== snapshot.outputSchemaHash) sink.error("binding.output_schema_mismatch", "$.output.schema");
  const slotIds = new Set(snapshot.modelSlots.map((s) => s.id));
  const toolIds = new Set(snapshot.tools.map((t) => t.id));
  const permissions = doc.permissions ?? {};
  listOf(permissions.models).forEach((m, i) => {
    if (!slotIds.has(m)) sink.error("binding.model_not_in_snapshot", childPath("$.permissions.models", i), `model slot "${m}" is not declared by the workflow (${[...slotIds].join(", ")})`);
  });
  listOf(permissions.tools).forEach((t, i) => {
    if (!toolIds.has(t)) sink.error("binding.tool_not_in_snapshot", childPath("$.permissions.tools", i), `tool "${t}" is not provided to the workflow (${[...toolIds].join(", ") || "none"})`);
  });
  listOf(permissions.secrets).forEach((s, i) => {
    sink.error("binding.secret_not_in_snapshot", childPath("$.permissions.secrets", i), `secret "${s}" is not declared by the workflow`);
  });
  (Array.isArray(doc.steps) ? doc.steps : []).forEach((step: Record<string, any>, i: number) => {
    const path = childPath("$.steps", i);
    const model = step?.with?.model;
    if (typeof step?.uses === "string" && step.uses.startsWith("ai.") && typeof model === "string" && !slotIds.has(model)) {
      sink.error("binding.step_model_not_allowed", `${path}.with.model`, `model "${model}" is not an execution model slot of the workflow`);
    }
    const fixerModel = step?.onFailure?.fixer?.model;
    if (typeof fixerModel === "string" && !slotIds.has(fixerModel)) {
      sink.error("binding.step_model_not_allowed", `${path}.onFailure.fixer.model`, `fixer model "${fixerModel}" is not an execution model slot of the workflow`);
    }
    const tool = step?.with?.tool;
    if (step?.uses === "tool.call" && typeof tool === "string" && !toolIds.has(tool)) {
      sink.error("binding.step_tool_not_allowed", `${path}.with.tool`, `tool "${tool}" is not a tool of the workflow`);
    }
  });
  return sink.findings;
}

function schemaHash(schema: unknown): string | null {
  try {
    return digestJson(normalizeJsonSchema(schema, "lwir schema"));
  } catch (error) {
    if (LittleError.is(error)) return null;
    throw error;
  }
}

function listOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}
