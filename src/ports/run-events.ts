import type { z } from "zod";
import { RunTerminatedError } from "../sdk/errors/run-terminated-error.ts";
import type { RunCauseCode } from "./events/cause-codes.ts";
import type {
  AwaitedSignalSchema,
  ChildOutcomeSchemas,
  CycleFailureSchema,
  HarnessRoleSchema,
  HarnessTaskKindSchema,
  ParentRefSchema,
  RecordedErrorSchema,
  RunMemoSchema,
  RunPlacementSchema,
  RunTriggerSchema,
  SucceededStepSchema,
  TokenUsageSchema,
} from "./events/common-schemas.ts";
import type { RunEventPayloadsOf } from "./events/run-event-schema.ts";

/**
 * The run event log's types: one discriminated union (the event names are listed in docs/runs.md).
 * Payloads are canonical JSON; secrets never enter them. `seq` is 1-based and dense per run.
 *
 * Every type here is inferred from the one schema in `events/` (run-event-schema.ts), which the
 * OpenAPI document and the logs' read check use too: change an event there. Only types are
 * imported, so what imports this file (the client) does not load zod.
 */

export type { RunCauseCode };

/** Where a run object lives; needed to address it again (a jurisdiction is its own namespace). */
export type RunPlacement = Readonly<z.infer<typeof RunPlacementSchema>>;

/** What started a run; `id` is the trigger's own key (idempotency key, webhook id, cron tick, queue message id). */
export type RunTrigger = Readonly<z.infer<typeof RunTriggerSchema>>;

/** The run a child run was started by (a `workflow.run` step): where to tell it the child ended, and how deep the call chain is. */
export type ParentRef = Readonly<z.infer<typeof ParentRefSchema>>;

/** A restart's or a fork's source (docs/runs.md, "Restart and forks"). */
export type RunMemo = Readonly<z.infer<typeof RunMemoSchema>>;

/** How a child run ended, as its parent records it (`ChildRunEnded`). */
export type ChildOutcome = Readonly<z.infer<(typeof ChildOutcomeSchemas)[number]>>;

/** Roles of harness sessions and the task kinds they run. */
export type HarnessRole = z.infer<typeof HarnessRoleSchema>;
export type HarnessTaskKind = z.infer<typeof HarnessTaskKindSchema>;

/** A structured failure, as recorded. */
export type RecordedError = Readonly<z.infer<typeof RecordedErrorSchema>>;

/** Why an outer-loop cycle failed, as recorded and as the next planner sees it. */
export type CycleFailure = Readonly<z.infer<typeof CycleFailureSchema>>;

/** A step that succeeded in a failed cycle: its output (redacted), or a preview when it is large. */
export type SucceededStep = Readonly<z.infer<typeof SucceededStepSchema>>;

/** Token usage, summed per call and per run. */
export type TokenUsage = Readonly<z.infer<typeof TokenUsageSchema>>;

/** Each event type's payload. */
export type RunEventPayloads = RunEventPayloadsOf;

/** A signal a wait takes, as its WaitStarted records it (what a form for it is generated from). */
export type AwaitedSignal = Readonly<z.infer<typeof AwaitedSignalSchema>>;

export type RunEventType = keyof RunEventPayloads;

/** One event as stored: the envelope around a typed payload. */
export type RunEvent<T extends RunEventType = RunEventType> = {
  [K in T]: { readonly seq: number; readonly runId: string; readonly type: K; readonly at: number; readonly payload: RunEventPayloads[K] };
}[T];

/** An event about to be appended (the log assigns `seq`, `runId` and `at`). */
export type NewRunEvent<T extends RunEventType = RunEventType> = {
  [K in T]: { readonly type: K; readonly payload: RunEventPayloads[K] };
}[T];

export const TERMINAL_EVENT_TYPES = ["RunCompleted", "RunFailed", "RunCancelled"] as const satisfies readonly RunEventType[];

export { RUN_STATUS_RANK, type RunStatus } from "./run-status.ts";

/** True for RunCompleted, RunFailed and RunCancelled: nothing may follow them. */
export function isTerminalType(type: string): boolean {
  return (TERMINAL_EVENT_TYPES as readonly string[]).includes(type);
}

/** Refuses a batch in which anything follows a terminal event. */
export function assertTerminalLast(runId: string, events: readonly { type: string }[]): void {
  const terminal = events.findIndex((e) => isTerminalType(e.type));
  if (terminal !== -1 && terminal < events.length - 1) throw new RunTerminatedError(runId, (events[terminal] as { type: string }).type);
}

/** Whether a type matches any pattern: exact, or a prefix written with a trailing `*`. */
export function matchesTypePattern(type: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => (p.endsWith("*") ? type.startsWith(p.slice(0, -1)) : type === p));
}
