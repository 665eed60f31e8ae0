import type { Digest } from "../../json/digest.ts";
import type { Clock } from "../../ports/clock.ts";
import type { RunCauseCode, RunStatus } from "../../ports/run-events.ts";
import type { RunIndex } from "../../ports/run-index.ts";
import type { WaitReason } from "../../ports/run-status.ts";
import { progressOf, type RunProgress, type RunState } from "../run-state.ts";

/** What an index row is written from, besides the run's state. */
export type IndexFields = {
  readonly definitionHash?: Digest | null;
  readonly versionId?: string | null;
  readonly causeCode?: RunCauseCode | null;
  /** Why the run waits, for status `waiting` (the fold's `waitReason`). */
  readonly waitReason?: WaitReason | null;
  /** When the row changed; the clock's now when absent. */
  readonly updatedAt?: number;
  /** The run's progress as of this write (`progressOf` of the run's current state); absent keeps the row's. */
  readonly progress?: RunProgress;
};

/**
 * The one write of a run's index row (start, each compile/run stage, the end, a cancel): the
 * request's tenant, workflow, trigger and placement from the log, the status and hashes given.
 * A run with no request in its log has no row to write.
 */
export async function indexRun(
  ports: { readonly runId: string; readonly runs: RunIndex; readonly clock: Clock },
  state: Pick<RunState, "request" | "requestedAt">,
  status: RunStatus,
  fields: IndexFields = {},
): Promise<void> {
  const request = state.request;
  if (!request) return;
  await ports.runs.upsert({
    runId: ports.runId,
    tenant: request.tenant,
    placement: request.placement ?? {},
    workflowId: request.workflowId,
    status,
    waitReason: status === "waiting" ? (fields.waitReason ?? null) : null,
    triggerKind: request.trigger.kind,
    definitionHash: fields.definitionHash ?? null,
    versionId: fields.versionId ?? null,
    causeCode: fields.causeCode ?? null,
    createdAt: state.requestedAt,
    updatedAt: fields.updatedAt ?? ports.clock.now(),
    ...(request.tags ? { tags: request.tags } : {}),
    ...(fields.progress ? { progress: fields.progress } : {}),
  });
}

/** What a write from the run's current state carries: its latest registration and its progress. */
export function indexFieldsOf(state: Parameters<typeof latestRegistration>[0] & Parameters<typeof progressOf>[0]): {
  definitionHash: Digest | null;
  versionId: string | null;
  progress: RunProgress;
} {
  return { ...latestRegistration(state), progress: progressOf(state) };
}

/** The version a run registered last (its current cycle's) and its definition hash; nulls before any. */
export function latestRegistration(state: Pick<RunState, "registered">): { definitionHash: Digest | null; versionId: string | null } {
  const registered = [...state.registered.values()].at(-1);
  return { definitionHash: registered?.definitionHash ?? null, versionId: registered?.versionId ?? null };
}
