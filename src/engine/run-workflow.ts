import type { RunTrigger } from "../ports/run-events.ts";
import type { RunResult, World } from "../ports/world.ts";
import type { WorkflowDefinition } from "../sdk/define-workflow.ts";
import type { ToolRegistry } from "../sdk/tool.ts";

export type RunWorkflowOptions = {
  readonly world: World;
  /** Re-using a run id replays that run (no new model calls) instead of starting another. */
  readonly runId?: string;
  readonly tools?: ToolRegistry;
  readonly tenant?: string;
  readonly trigger?: RunTrigger;
  /** Run this LWIR as is (registered and locked against the definition), without a planner. */
  readonly lwir?: unknown;
};

/**
 * Runs a workflow to its end through a world (the dev-facing entry, docs/runs.md): compile with the
 * planner, register and lock the version, execute, and return the result.
 *
 * @example
 * const result = await runWorkflow(summarizeTicket, { ticketId: "T-1", transcript: "…" }, { world });
 * result.status // "completed"; result.output // { summary, severity }
 */
export async function runWorkflow(workflow: WorkflowDefinition, input: unknown, options: RunWorkflowOptions): Promise<RunResult> {
  return options.world.run({
    runId: options.runId ?? `run_${crypto.randomUUID().replaceAll("-", "")}`,
    workflow,
    tools: options.tools ?? {},
    input,
    trigger: options.trigger ?? { kind: "programmatic" },
    tenant: options.tenant ?? "default",
    ...(options.lwir !== undefined ? { lwir: options.lwir } : {}),
  });
}
