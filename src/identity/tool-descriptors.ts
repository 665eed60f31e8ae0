import { type JsonSchema, normalizeSchema } from "../schema/normalize-schema.ts";
import type { WorkflowDefinition } from "../sdk/define-workflow.ts";
import { WorkflowMissingToolError } from "../sdk/errors/workflow-missing-tool-error.ts";
import type { ToolDefinition, ToolRegistry } from "../sdk/tool.ts";
import { type Digest, digestJson } from "./digest.ts";

/**
 * What the planner and the lock know of a tool: its description and schemas, never its code.
 * `descriptorHash` is checked again before every call, so a tool changed under a locked version
 * fails with `capability_drift`.
 */
export type ToolDescriptor = {
  readonly id: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema: JsonSchema | null;
  /** Present when the tool declares `needsApproval` (a function makes it conditional on the input). */
  readonly approval?: "always" | "conditional";
  readonly descriptorHash: Digest;
};

/**
 * Resolves the workflow's inline tools and its `globalTools` (looked up in `registry`) into
 * descriptors sorted by id. Throws {@link WorkflowMissingToolError} listing every missing name.
 */
export async function resolveTools(definition: WorkflowDefinition, registry: ToolRegistry): Promise<ToolDescriptor[]> {
  const missing = definition.globalTools.filter((id) => !Object.hasOwn(registry, id));
  if (missing.length > 0) throw new WorkflowMissingToolError(definition.id, missing);
  const entries: Array<[string, ToolDefinition]> = [
    ...Object.entries(definition.tools),
    ...definition.globalTools.map((id) => [id, registry[id] as ToolDefinition] as [string, ToolDefinition]),
  ];
  const descriptors = await Promise.all(entries.map(([id, t]) => describeTool(id, t)));
  return descriptors.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The descriptor of one tool. */
export async function describeTool(id: string, t: ToolDefinition): Promise<ToolDescriptor> {
  const inputSchema = (await normalizeSchema(t.inputSchema, "input", `tool ${id}.inputSchema`)).schema;
  const outputSchema =
    t.outputSchema === undefined ? null : (await normalizeSchema(t.outputSchema, "output", `tool ${id}.outputSchema`)).schema;
  const description = t.description ?? "";
  // Only when declared, so tools without approvals keep the descriptor hash they always had.
  const approval: ToolDescriptor["approval"] =
    typeof t.needsApproval === "function" ? "conditional" : t.needsApproval === true ? "always" : undefined;
  const hashed = { id, description, inputSchema, outputSchema, ...(approval ? { approval } : {}) };
  return { ...hashed, descriptorHash: digestJson(hashed) };
}
