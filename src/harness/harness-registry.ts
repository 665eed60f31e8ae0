import { type HarnessRef, HarnessUnknownError } from "../sdk/errors/harness-unknown-error.ts";
import { DEFAULT_HARNESS_ID, HARNESS_IDS, type HarnessId } from "../sdk/harness-ids.ts";
import { type FixerSessionSpec, runFixerSession } from "./fixer-session.ts";
import type { HarnessContext } from "./harness-context.ts";
import { type PlannerSessionSpec, runPlannerSession } from "./planner-session.ts";
import type { SessionOutcome } from "./run-session.ts";
import { runWorkerSession, type WorkerSessionSpec } from "./worker-session.ts";

/**
 * One harness: how each session role runs. The id a definition names (`planner.harness`,
 * `worker.harness`) selects it; the id is in the planner manifest and the worker manifests, so a
 * run compiled for one harness never resumes under another (capability_drift).
 */
export type Harness = {
  readonly id: HarnessId;
  /** The planner session (task kind `plan`): bash, memory, skills and `submit_lwir`. */
  plan(spec: PlannerSessionSpec, ctx: HarnessContext): Promise<SessionOutcome>;
  /** A worker session for an `ai.generate` step (task kind `execute_step`). */
  work(spec: WorkerSessionSpec, ctx: HarnessContext): Promise<SessionOutcome>;
  /** A fixer session for a failing `code.run` step (task kind `fix_step`). */
  fix(spec: FixerSessionSpec, ctx: HarnessContext): Promise<SessionOutcome>;
};

/** The built-in harness: the AI SDK agent loop with every model and tool call journaled. */
const workflowHarness: Harness = {
  id: DEFAULT_HARNESS_ID,
  plan: runPlannerSession,
  work: runWorkerSession,
  fix: runFixerSession,
};

/** Every id `defineWorkflow` accepts has an entry (the mapped type makes a missing one a type error). */
const HARNESSES: { readonly [K in HarnessId]: Harness } = { [DEFAULT_HARNESS_ID]: workflowHarness };

/**
 * The harness registered under `id`. `defineWorkflow` refuses unknown ids, so this throws
 * {@link HarnessUnknownError} only for a definition built around it (by hand, or by a newer
 * version of the package than the one running it).
 *
 * @example
 * const outcome = await harnessFor(snapshot.plannerConfig.harnessId).plan(spec, ctx);
 */
export function harnessFor(id: string, role: "planner" | "worker" = "planner", workflowId = "(unknown)"): Harness {
  const harness = (HARNESSES as Readonly<Record<string, Harness>>)[id];
  if (harness) return harness;
  throw new HarnessUnknownError(
    workflowId,
    [{ path: role === "planner" ? "$.planner.harness" : "$.worker.harness", harnessId: id }],
    HARNESS_IDS,
  );
}

/**
 * Resolves both harness ids a definition names, before anything of the run is compiled: the
 * worker's is otherwise first looked up when a step's session starts, after the planner ran.
 * Throws {@link HarnessUnknownError} listing every unknown id.
 *
 * @example
 * checkHarnesses(snapshot.id, { planner: snapshot.plannerConfig.harnessId, worker: snapshot.workerConfig.harnessId });
 */
export function checkHarnesses(workflowId: string, ids: { readonly planner: string; readonly worker: string }): void {
  const known = HARNESSES as Readonly<Record<string, Harness>>;
  const unknown: HarnessRef[] = [];
  if (!Object.hasOwn(known, ids.planner)) unknown.push({ path: "$.planner.harness", harnessId: ids.planner });
  if (!Object.hasOwn(known, ids.worker)) unknown.push({ path: "$.worker.harness", harnessId: ids.worker });
  if (unknown.length > 0) throw new HarnessUnknownError(workflowId, unknown, HARNESS_IDS);
}
