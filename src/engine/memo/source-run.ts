/**
 * @module A restart's or fork's source run as its log tells it, through the engine's one fold: its
 * request, the version its last cycle ran, the definition that version was locked against, and
 * each step's recorded result with the seq of the event that recorded it.
 */
import type { WorkflowDefinitionSnapshot } from "../../identity/definition-snapshot.ts";
import type { Digest } from "../../json/digest.ts";
import type { Lwir, LwirStep } from "../../lwir/types.ts";
import type { RunEvent } from "../../ports/run-events.ts";
import type { VersionStore } from "../../ports/version-store.ts";
import { deriveRunState, type RunState } from "../run-state.ts";

export type SourceRun = {
  readonly runId: string;
  readonly events: readonly RunEvent[];
  readonly state: RunState;
  readonly workflowId: string;
  readonly input: unknown;
  /** The outer-loop cycle whose version ran last, and that version. */
  readonly cycle: number;
  readonly versionId: string;
  readonly lwir: Lwir;
  readonly definitionHash: Digest;
  /** The definition the version was locked against (null when the store no longer has it: nothing is reused). */
  readonly snapshot: WorkflowDefinitionSnapshot | null;
};

/** The source run, or null when it never ran a version (nothing to restart from or reuse). */
export async function readSourceRun(runId: string, events: readonly RunEvent[], versions: VersionStore): Promise<SourceRun | null> {
  const state = deriveRunState(events);
  if (!state.request || state.section) return null;
  const cycle = Math.max(0, ...state.started);
  const registered = state.registered.get(cycle);
  if (cycle === 0 || !registered) return null;
  // Both reads at once: each is a round trip to the version store (D1).
  const [version, snapshot] = await Promise.all([
    versions.getVersionById(registered.versionId),
    versions.getDefinition(registered.definitionHash),
  ]);
  if (!version) return null;
  return {
    runId,
    events,
    state,
    workflowId: state.request.workflowId,
    input: state.request.input,
    cycle,
    versionId: registered.versionId,
    lwir: version.lwir as Lwir,
    definitionHash: registered.definitionHash,
    snapshot,
  };
}

/** The path a top-level step had in the source's last cycle (first visit). */
export function sourcePath(source: SourceRun, stepId: string): string {
  return `c${source.cycle}/${stepId}`;
}

/** The source's recorded output of a step and the seq of its `StepSucceeded`, when it succeeded. */
export function recordedStep(source: SourceRun, stepId: string): { recorded: unknown; seq: number } | null {
  const path = sourcePath(source, stepId);
  if (!source.state.stepOutputs.has(path)) return null;
  const event = source.events.findLast((e) => e.type === "StepSucceeded" && e.payload.stepPath === path);
  return event ? { recorded: source.state.stepOutputs.get(path), seq: event.seq } : null;
}

/** The first step of the source's version that failed for good, in the version's order. */
export function firstFailedStep(source: SourceRun): LwirStep | undefined {
  return source.lwir.steps.find((s) => source.state.steps.get(sourcePath(source, s.id))?.failed !== undefined);
}
