import type { WorkflowDefinition } from "../sdk/define-workflow.ts";
import type { ToolRegistry } from "../sdk/tool.ts";
import type { RunCauseCode, RunStatus, RunTrigger, TokenUsage } from "./run-events.ts";
import type { WaitReason } from "./run-status.ts";

/**
 * How a run ended, as `runWorkflow` returns it; or, for a section, that it waits for its next
 * trigger (status `waiting`, `waitReason: "trigger"`).
 */
export type RunResult = {
  readonly runId: string;
  readonly status: RunStatus;
  /** Why a `waiting` run waits (absent otherwise): `approval`, `sleep` or `trigger`. */
  readonly waitReason?: WaitReason;
  readonly output?: unknown;
  readonly cause?: { readonly code: RunCauseCode; readonly message: string; readonly details?: unknown };
  readonly versionId?: string;
  readonly usage?: TokenUsage;
};

/** A request to run a workflow to its end. */
export type RunRequest = {
  readonly runId: string;
  readonly workflow: WorkflowDefinition;
  readonly tools: ToolRegistry;
  readonly input: unknown;
  readonly trigger: RunTrigger;
  readonly tenant: string;
  /** LWIR to run as is, without a planner. */
  readonly lwir?: unknown;
};

/**
 * Where runs live, grouped behind one interface (after vercel/workflow's `World`): the Cloudflare
 * world (one Durable Object per run, D1) and the in-memory world for unit tests in plain Node.
 * Running an existing run id again replays it; it never starts a second run.
 */
export interface World {
  run(request: RunRequest): Promise<RunResult>;
}
