import type { Tool } from "ai";
import { SECRET_NAME_PATTERN } from "./names.ts";

/**
 * A tool a workflow can call from `tool.call` steps: an AI SDK tool with a required description.
 * Its description, input schema, output schema and declared secrets are hashed into the
 * definition, so changing any of them is a capability change (drift) for runs compiled against
 * the old one.
 */
export type ToolDefinition = Tool & {
  readonly description: string;
  /**
   * Names of the workflow's secrets this tool is given in `execute(input, { context: { secrets } })`.
   * A tool that declares none gets none: least privilege per tool, not per workflow.
   */
  readonly secrets?: readonly string[];
};

/**
 * What a tool's `execute(input, { context })` receives in a `tool.call` step.
 *
 * @example
 * execute: async (input, { context }: { context: ToolContext<Env> }) => context.env.DB.prepare("…").all()
 */
export type ToolContext<E = unknown> = {
  /** `<runId>:<stepPath>:a<attempt>`: the same when an attempt in flight at a crash runs again. */
  readonly idempotencyKey: string;
  /** The secrets this tool declares in `tool({ secrets })` that the workflow binds, by name. */
  readonly secrets: Readonly<Record<string, string>>;
  /**
   * The Worker's `env` (bindings and vars) in a Worker made by `createWorker`; in the in-memory
   * world, the `env` given to `new MemoryWorld({ env })` (else undefined). Never logged.
   */
  readonly env: E;
};

/** A tool as `tool()` accepts it, its `execute` context typed as {@link ToolContext}. */
// biome-ignore lint/suspicious/noExplicitAny: input and output are inferred per tool, as in the AI SDK's own `Tool`.
type ContextualTool<E> = Tool<any, any, ToolContext<E>> & { description: string; secrets?: readonly string[] };

/**
 * Declares a tool (same shape as the AI SDK's `tool()`, description required; `secrets` names
 * the secrets it may read, each of which the workflow must bind with `defineWorkflow({ secrets })`).
 *
 * @example
 * tool({
 *   description: "Look a customer up in the CRM",
 *   inputSchema: z.object({ email: z.string() }),
 *   outputSchema: z.object({ plan: z.string() }),
 *   secrets: ["CRM_TOKEN"],
 *   execute: async ({ email }, { context }) => crm.lookup(email, context.secrets.CRM_TOKEN),
 * })
 */
export function tool<T extends ContextualTool<unknown>>(definition: T): T {
  if (typeof definition.description !== "string" || definition.description.trim() === "") {
    throw new TypeError("tool(): a description is required; the planner reads it to decide how to call the tool");
  }
  const secrets: unknown = definition.secrets;
  if (secrets !== undefined && !(Array.isArray(secrets) && secrets.every((n) => typeof n === "string" && SECRET_NAME_PATTERN.test(n)))) {
    throw new TypeError("tool(): secrets lists secret names (1–64 of A-Z, 0-9 and '_', starting with a letter)");
  }
  return definition;
}

/**
 * `tool` with the Worker's `env` typed in its context: `E` is the Env your `wrangler types` made.
 *
 * @example
 * const envTool = toolWithEnv<Env>();
 * export const countOrders = envTool({
 *   description: "Count a customer's orders",
 *   inputSchema: z.object({ email: z.string() }),
 *   execute: async ({ email }, { context }) =>
 *     context.env.DB.prepare("SELECT count(*) AS n FROM orders WHERE email = ?").bind(email).first("n"),
 * });
 */
export function toolWithEnv<E>(): <T extends ContextualTool<E>>(definition: T) => T {
  return (definition) => tool(definition as unknown as ContextualTool<unknown>) as unknown as typeof definition;
}

/** A registry of tools by id, as given to a run (`runWorkflow(wf, input, { tools })`). */
export type ToolRegistry = Readonly<Record<string, ToolDefinition>>;
