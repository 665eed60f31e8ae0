import type { Tool } from "ai";

/**
 * A tool a workflow can call from `tool.call` steps: an AI SDK tool with a required description.
 * Its description, input schema and output schema are hashed into the definition, so changing
 * any of them is a capability change (drift) for runs compiled against the old one.
 */
export type ToolDefinition = Tool & { readonly description: string };

/**
 * Declares a tool (same shape as the AI SDK's `tool()`, description required).
 *
 * @example
 * tool({
 *   description: "Look a customer up in the CRM",
 *   inputSchema: z.object({ email: z.string() }),
 *   outputSchema: z.object({ plan: z.string() }),
 *   execute: async ({ email }) => crm.lookup(email),
 * })
 */
export function tool<T extends Tool & { description: string }>(definition: T): T {
  if (typeof definition.description !== "string" || definition.description.trim() === "") {
    throw new TypeError("tool(): a description is required; the planner reads it to decide how to call the tool");
  }
  return definition;
}

/** A registry of tools by id, as given to a run (`runWorkflow(wf, input, { tools })`). */
export type ToolRegistry = Readonly<Record<string, ToolDefinition>>;
