/**
 * The dev-facing entry (docs/runs.md, "Running a workflow from code"):
 * `runWorkflow(workflow, input, { world, tools })`.
 * Inside the Worker the world defaults to the Cloudflare world built from the Worker's env.
 */
import { env } from "cloudflare:workers";
import { type RunWorkflowOptions, runWorkflow as runWorkflowIn } from "./engine/run-workflow.ts";
import type { RunResult } from "./ports/world.ts";
import type { WorkflowDefinition } from "./sdk/define-workflow.ts";
import { CloudflareWorld } from "./worlds/cloudflare-world.ts";

/**
 * @example
 * const result = await runWorkflow(summarizeTicket, { ticketId: "T-1", transcript: "…" });
 */
export function runWorkflow(workflow: WorkflowDefinition, input: unknown, options: Partial<RunWorkflowOptions> = {}): Promise<RunResult> {
  return runWorkflowIn(workflow, input, { ...options, world: options.world ?? new CloudflareWorld(env as Env) });
}
