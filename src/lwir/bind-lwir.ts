import type { DefinitionCapabilities } from "../identity/definition-snapshot.ts";
import { digestJson } from "../json/digest.ts";
import { normalizeJsonSchema, type SchemaNormalizerId } from "../schema/normalize-schema.ts";
import { LittleError } from "../sdk/errors/little-error.ts";
import type { Finding } from "../sdk/finding.ts";
import { childPath } from "../sdk/json-path.ts";
import { checkRequiredTools } from "./bind-required-tools.ts";
import { checkSignalBinding } from "./bind-signals.ts";
import { checkToolInput } from "./bind-tool-input.ts";
import { checkWorkflowRunBinding } from "./bind-workflow-run.ts";
import { FindingSink } from "./findings-sink.ts";
import { terminalSteps } from "./graph.ts";
import type { Lwir, LwirStep } from "./types.ts";

/**
 * The binding pass (compile stage 7, docs/architecture.md): ties structurally valid LWIR to the definition it was compiled
 * for. Name, input and output schema hashes, permissions as subsets of the snapshot, and every
 * step's model and tool within the allowed sets. Run it after `validateLwir` finds no errors.
 *
 * @example
 * const findings = bindLwir(lwir, await snapshotDefinition(workflow, tools));
 */
export function bindLwir(lwir: unknown, capabilities: DefinitionCapabilities): Finding[] {
  const sink = new FindingSink();
  // Run after validateLwir found no errors, so the shape is LWIR's; stay defensive anyway.
  const doc = (lwir ?? {}) as Partial<Lwir>;
  const { snapshot } = capabilities;
  if (doc.metadata?.name !== snapshot.id) {
    sink.error("binding.workflow_name_mismatch", "$.metadata.name", `metadata.name must be "${snapshot.id}", the workflow's id`);
  }
  const normalizer = capabilities.schemaNormalizer;
  if (schemaHash(doc.input?.schema, normalizer) !== snapshot.inputSchemaHash) sink.error("binding.input_schema_mismatch", "$.input.schema");
  if (schemaHash(doc.output?.schema, normalizer) !== snapshot.outputSchemaHash)
    sink.error("binding.output_schema_mismatch", "$.output.schema");
  const allowed: Allowed = { slotIds: new Set(snapshot.modelSlots.map((s) => s.id)), toolIds: new Set(snapshot.tools.map((t) => t.id)) };
  checkPermissions(sink, doc.permissions ?? {}, snapshot, allowed);
  (Array.isArray(doc.steps) ? (doc.steps as unknown[]) : []).forEach((raw, i) => {
    if (typeof raw !== "object" || raw === null) return;
    const step = raw as LwirStep;
    checkStepBinding(sink, step, childPath("$.steps", i), snapshot, allowed);
    if (step.uses === "workflow.run") checkWorkflowRunBinding(sink, step, childPath("$.steps", i), capabilities);
  });
  checkTerminalOutput(sink, doc, capabilities);
  checkRequiredTools(sink, doc.steps, capabilities);
  return sink.findings;
}

/** The model slot ids and tool ids the snapshot declares. */
type Allowed = { readonly slotIds: ReadonlySet<string>; readonly toolIds: ReadonlySet<string> };

type Snapshot = DefinitionCapabilities["snapshot"];

/** Each permission list must be a subset of what the definition declares. */
function checkPermissions(sink: FindingSink, permissions: Partial<Lwir["permissions"]>, snapshot: Snapshot, allowed: Allowed): void {
  const { slotIds, toolIds } = allowed;
  listOf(permissions.models).forEach((m, i) => {
    if (!slotIds.has(m))
      sink.error(
        "binding.model_not_in_snapshot",
        childPath("$.permissions.models", i),
        `model slot "${m}" is not declared by the workflow (${[...slotIds].join(", ")})`,
      );
  });
  listOf(permissions.tools).forEach((t, i) => {
    if (!toolIds.has(t))
      sink.error(
        "binding.tool_not_in_snapshot",
        childPath("$.permissions.tools", i),
        `tool "${t}" is not provided to the workflow (${[...toolIds].join(", ") || "none"})`,
      );
  });
  const secretNames = new Set(snapshot.secrets ?? []);
  listOf(permissions.secrets).forEach((s, i) => {
    if (!secretNames.has(s))
      sink.error(
        "binding.secret_not_in_snapshot",
        childPath("$.permissions.secrets", i),
        `secret "${s}" is not declared by the workflow (${[...secretNames].join(", ") || "none"})`,
      );
  });
  const hosts = new Set(snapshot.network);
  listOf(permissions.network).forEach((h, i) => {
    if (!hosts.has(h))
      sink.error(
        "binding.network_not_allowed",
        childPath("$.permissions.network", i),
        `host "${h}" is not in the workflow's network allowlist (${[...hosts].join(", ") || "empty"})`,
      );
  });
}

/** A step's model, fixer model and tool must be the workflow's; a tool call's input must fit the tool. */
function checkStepBinding(sink: FindingSink, step: LwirStep, path: string, snapshot: Snapshot, allowed: Allowed): void {
  const { slotIds, toolIds } = allowed;
  const model = step.uses === "ai.generate" ? step.with?.model : undefined;
  if (typeof model === "string" && !slotIds.has(model)) {
    sink.error(
      "binding.step_model_not_allowed",
      `${path}.with.model`,
      `model "${model}" is not an execution model slot of the workflow (${[...slotIds].join(", ")})`,
    );
  }
  const fixerModel = step.uses === "code.run" ? step.onFailure?.fixer?.model : undefined;
  if (typeof fixerModel === "string" && !slotIds.has(fixerModel)) {
    sink.error(
      "binding.step_model_not_allowed",
      `${path}.onFailure.fixer.model`,
      `fixer model "${fixerModel}" is not an execution model slot of the workflow (${[...slotIds].join(", ")})`,
    );
  }
  const tool = step.uses === "tool.call" ? step.with?.tool : undefined;
  if (typeof tool === "string" && !toolIds.has(tool)) {
    sink.error(
      "binding.step_tool_not_allowed",
      `${path}.with.tool`,
      `tool "${tool}" is not a tool of the workflow (${[...toolIds].join(", ") || "none"})`,
    );
  }
  const descriptor = typeof tool === "string" ? snapshot.tools.find((t) => t.id === tool) : undefined;
  if (descriptor && step.uses === "tool.call") checkToolInput(sink, step.with?.input, descriptor, path);
  checkSignalBinding(sink, step, path, snapshot);
}

/** The terminal step's output is the workflow's output: it must be the requested output mode. */
function checkTerminalOutput(sink: FindingSink, doc: Partial<Lwir>, capabilities: DefinitionCapabilities): void {
  if (!Array.isArray(doc.steps)) return;
  const nodes = (doc.steps as unknown[]).flatMap((raw, i) => {
    if (typeof raw !== "object" || raw === null) return [];
    const step = raw as { id?: unknown; needs?: unknown };
    if (typeof step.id !== "string") return [];
    const needs = Array.isArray(step.needs) ? step.needs.filter((n): n is string => typeof n === "string") : [];
    return [{ id: step.id, needs, index: i, step: raw as LwirStep }];
  });
  const terminals = terminalSteps(nodes);
  if (terminals.length !== 1) return;
  const terminal = nodes.find((n) => n.id === terminals[0]);
  if (!terminal || terminal.step.uses === "decision" || terminal.step.output === undefined) return;
  if (outputKey(terminal.step.output) === outputKey(capabilities.requestedOutput)) return;
  // The run's output is checked against output.schema when the run ends, so a mode that can still
  // give a valid value (a json step, text for a choice, anything for a json request) is allowed;
  // a mode whose values are of another JSON type (an object for a text request) never can. No
  // warning for the allowed ones: a warning is part of a version's lock, and versions compiled
  // before this check existed must still re-derive the same lock when their runs resume.
  const given = valueType((terminal.step.output as { mode?: unknown }).mode);
  const wanted = valueType(capabilities.requestedOutput.mode);
  if (given === "any" || wanted === "any" || given === wanted) return;
  sink.error(
    "binding.output_mode_mismatch",
    `${childPath("$.steps", terminal.index)}.output`,
    `"${terminal.id}" is the terminal step, so its output is the workflow's output: its mode must be the task's requestedOutput mode "${capabilities.requestedOutput.mode}"; copy requestedOutput exactly: ${JSON.stringify(capabilities.requestedOutput)}`,
  );
}

/** The JSON type an output mode's values have. */
function valueType(mode: unknown): string {
  if (mode === "text" || mode === "choice") return "string";
  if (mode === "object" || mode === "array") return mode;
  return "any";
}

/**
 * An output compared by mode (and a choice's values). The schema is not compared: the run's
 * output is checked against `output.schema` anyway, and the specification's own worked example gives its
 * terminal step a schema that differs from the definition's only in `additionalProperties`.
 */
function outputKey(output: unknown): string | null {
  if (typeof output !== "object" || output === null) return null;
  const { mode, values } = output as { mode?: unknown; values?: unknown };
  return JSON.stringify([mode, Array.isArray(values) ? [...values].sort() : null]);
}

/** Hashed as the definition's schemas were, so an LWIR compiled under `@1` still binds under `@1`. */
function schemaHash(schema: unknown, normalizer: SchemaNormalizerId): string | null {
  try {
    return digestJson(normalizeJsonSchema(schema, "lwir schema", normalizer));
  } catch (error) {
    if (LittleError.is(error)) return null;
    throw error;
  }
}

function listOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}
