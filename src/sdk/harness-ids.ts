/**
 * The harnesses a definition may name in `planner.harness` and `worker.harness`. The id is part of
 * the planner manifest and the definition hash, so a run is always executed by the harness it was
 * compiled for; the harness layer maps each id to its implementation (src/harness/harness-registry.ts),
 * and `defineWorkflow` refuses any other id with {@link HarnessUnknownError}.
 *
 * @example
 * defineWorkflow({ ...definition, worker: { harness: DEFAULT_HARNESS_ID } });
 */
export const DEFAULT_HARNESS_ID = "workflowHarness@1.0.0";

/** Every harness id this version of Little Workflow can run. */
export const HARNESS_IDS = [DEFAULT_HARNESS_ID] as const;

export type HarnessId = (typeof HARNESS_IDS)[number];

/** Whether `id` names a harness this version can run. */
export function isHarnessId(id: unknown): id is HarnessId {
  return typeof id === "string" && (HARNESS_IDS as readonly string[]).includes(id);
}
