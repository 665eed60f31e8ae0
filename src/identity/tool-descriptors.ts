import { type Digest, digestJson } from "../json/digest.ts";
import { type JsonSchema, normalizeSchema, SCHEMA_NORMALIZER, type SchemaNormalizerId } from "../schema/normalize-schema.ts";
import type { WorkflowDefinition } from "../sdk/define-workflow.ts";
import { WorkflowDefinitionError } from "../sdk/errors/workflow-definition-error.ts";
import { WorkflowMissingToolError } from "../sdk/errors/workflow-missing-tool-error.ts";
import type { ToolDefinition, ToolRegistry } from "../sdk/tool.ts";

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
  /** Sorted names of the secrets the tool is given; present only when it declares some. */
  readonly secrets?: readonly string[];
  readonly descriptorHash: Digest;
};

/**
 * Resolves the workflow's inline tools and its `globalTools` (looked up in `registry`) into
 * descriptors sorted by id. Throws {@link WorkflowMissingToolError} listing every missing name.
 */
export async function resolveTools(
  definition: WorkflowDefinition,
  registry: ToolRegistry,
  normalizer: SchemaNormalizerId = SCHEMA_NORMALIZER,
): Promise<ToolDescriptor[]> {
  const missing = definition.globalTools.filter((id) => !Object.hasOwn(registry, id));
  if (missing.length > 0) throw new WorkflowMissingToolError(definition.id, missing);
  const entries: Array<[string, ToolDefinition]> = [
    ...Object.entries(definition.tools),
    ...definition.globalTools.map((id) => [id, registry[id] as ToolDefinition] as [string, ToolDefinition]),
  ];
  const descriptors = await Promise.all(entries.map(([id, t]) => describeTool(id, t, normalizer)));
  // A tool asking for a secret the workflow does not bind would silently get nothing: refuse it here.
  const bound = new Set(definition.secrets);
  const findings = descriptors.flatMap((d) =>
    (d.secrets ?? [])
      .filter((name) => !bound.has(name))
      .map((name) => ({
        severity: "error" as const,
        code: "definition.tool_secret_unbound",
        path: `$.tools.${d.id}.secrets`,
        message: `tool "${d.id}" declares secret "${name}", which the workflow does not bind (defineWorkflow({ secrets }))`,
      })),
  );
  if (findings.length > 0) throw new WorkflowDefinitionError(definition.id, findings);
  return descriptors.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The descriptor of one tool. */
export async function describeTool(
  id: string,
  t: ToolDefinition,
  normalizer: SchemaNormalizerId = SCHEMA_NORMALIZER,
): Promise<ToolDescriptor> {
  const inputSchema = (await normalizeSchema(t.inputSchema, "input", `tool ${id}.inputSchema`, normalizer)).schema;
  const outputSchema =
    t.outputSchema === undefined ? null : (await normalizeSchema(t.outputSchema, "output", `tool ${id}.outputSchema`, normalizer)).schema;
  const description = t.description ?? "";
  // Only when declared, so tools without approvals keep the descriptor hash they always had.
  const approval: ToolDescriptor["approval"] =
    typeof t.needsApproval === "function" ? "conditional" : t.needsApproval === true ? "always" : undefined;
  // Likewise only when declared: the secrets a tool is given are a capability, so they are hashed.
  const secrets = [...new Set(t.secrets ?? [])].sort();
  const hashed = {
    id,
    description,
    inputSchema,
    outputSchema,
    ...(approval ? { approval } : {}),
    ...(secrets.length > 0 ? { secrets } : {}),
  };
  return { ...hashed, descriptorHash: digestJson(hashed) };
}
