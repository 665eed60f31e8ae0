import { LWIR_VALIDATOR_ID } from "../../identity/lwir-validator-id.ts";
import { canonicalJson } from "../../json/canonical-json.ts";
import { digestJson } from "../../json/digest.ts";
import type { RunEvent, RunEventPayloads } from "../../ports/run-events.ts";
import type { DecisionRequest, DecisionResult, StartRunRequest, TriggerRequest, TriggerResult } from "../../ports/run-handle.ts";
import { SCHEMA_NORMALIZER } from "../../schema/normalize-schema.ts";
import { cancelChildren } from "../children/child-messages.ts";
import { FIRST_OCCURRENCE_ID, progressOf, readRunState } from "../run-state.ts";
import { type RunHostPorts, textRedactorOf, WITHHELD } from "./host-ports.ts";
import { indexRun, latestRegistration } from "./index-run.ts";
import { approvalView } from "./run-view.ts";
import { settleEnded } from "./settle-ended.ts";
import { staleSection } from "./stale-section.ts";

/** A section's occurrence ids, in arrival order: the first ({@link FIRST_OCCURRENCE_ID}) is the run's own request. */
function occurrenceId(ordinal: number): string {
  return `o${ordinal}`;
}

/**
 * Starts the run: `RunRequested`. A log that holds anything already is the run as it was started:
 * `existing` when this request asks for the same workflow, input, tags and LWIR, else `conflict`. What the log cannot hold (a lone surrogate, a NaN) is refused before anything
 * is armed, and the alarm is armed before the request is appended: a crash between the two still
 * resumes the run. A created run comes back with the events it appended, so its host can answer the
 * start without reading the log again. Its index row is the host's to write after the answer
 * (`indexStarted` in index-due.ts; the armed alarm is the repair path): the row is not on the start's path.
 */
export async function startRun(
  ports: RunHostPorts,
  request: StartRunRequest,
  /** The host's own note of a new run (the run object's index mark), made in the request's append turn, so the same sync covers both. */
  onCreate?: () => void,
): Promise<{ outcome: "existing" } | { outcome: "conflict" } | { outcome: "created"; events: readonly RunEvent[] }> {
  const [first] = await ports.log.page({ after: 0, limit: 1 });
  if (first)
    return first.type === "RunRequested" && sameRequest(first.payload, request) ? { outcome: "existing" } : { outcome: "conflict" };
  const tenant = request.tenant ?? "default";
  const placement = request.placement ?? {};
  canonicalJson({ input: request.input ?? null, lwir: request.lwir ?? null });
  await ports.alarm.wakeIn(0);
  onCreate?.();
  const requested = await ports.log.append([
    {
      type: "RunRequested",
      payload: {
        workflowId: request.workflowId,
        input: request.input,
        trigger: request.trigger,
        tenant,
        ...(Object.keys(placement).length > 0 ? { placement } : {}),
        ...(request.lwir !== undefined ? { lwir: request.lwir } : {}),
        ...(request.approvedDefinitionHash !== undefined ? { approvedDefinitionHash: request.approvedDefinitionHash } : {}),
        ...(request.approvedDefinitionHash !== undefined && request.approvedAt !== undefined ? { approvedAt: request.approvedAt } : {}),
        ...(request.pinnedVersionId !== undefined ? { pinnedVersionId: request.pinnedVersionId } : {}),
        ...(request.pinnedVersionHash !== undefined ? { pinnedVersionHash: request.pinnedVersionHash } : {}),
        ...(request.parent !== undefined ? { parent: request.parent } : {}),
        schemaNormalizer: SCHEMA_NORMALIZER,
        lwirValidator: LWIR_VALIDATOR_ID,
        ...(request.flow?.length ? { flow: request.flow } : {}),
        ...(request.traceparent !== undefined ? { traceparent: request.traceparent } : {}),
        ...(request.memo !== undefined ? { memo: request.memo } : {}),
        ...(request.modelOverrides !== undefined ? { modelOverrides: request.modelOverrides } : {}),
        ...(request.tags !== undefined ? { tags: { ...request.tags } } : {}),
      },
    },
  ]);
  return { outcome: "created", events: requested };
}

/** Whether a repeated start asks for the run that was started: the same workflow, input, tags and LWIR (or, both, none). */
function sameRequest(started: RunEventPayloads["RunRequested"], request: StartRunRequest): boolean {
  if (started.workflowId !== request.workflowId) return false;
  if (digestJson(started.input ?? null) !== digestJson(request.input ?? null)) return false;
  if (digestJson(started.tags ?? null) !== digestJson(request.tags ?? null)) return false;
  if (started.lwir === undefined || request.lwir === undefined) return started.lwir === request.lwir;
  return digestJson(started.lwir) === digestJson(request.lwir);
}

/**
 * Queues a section occurrence: `OccurrenceQueued` with the trigger's payload, then an alarm to run
 * it. A trigger id seen before (an idempotency key, a webhook id) returns the same occurrence; the
 * run's own request never counts as one seen before.
 */
export async function triggerRun(
  ports: RunHostPorts,
  request: TriggerRequest,
): Promise<Exclude<TriggerResult, { ok: true }> | { ok: true; occurrenceId: string; created: boolean }> {
  // First: it awaits (a snapshot), and the checks and the append below must see one state.
  const stale = await staleSection(ports);
  const state = (await readRunState(ports.log)).state;
  if (!state.request) return { ok: false, code: "run_not_found", message: "No such run" };
  if (state.terminal) return { ok: false, code: "run_ended", message: `The run has ended (${state.status}); it takes no more triggers` };
  const id = request.trigger.id;
  const seen =
    id === undefined
      ? undefined
      : state.occurrences.find(
          (o) => o.trigger.kind === request.trigger.kind && o.trigger.id === id && o.occurrenceId !== FIRST_OCCURRENCE_ID,
        );
  if (seen) return { ok: true, occurrenceId: seen.occurrenceId, created: false };
  if (stale) return { ok: false, code: "section_stale", message: stale };
  const queued = occurrenceId(state.occurrences.length + 1);
  await ports.log.append([{ type: "OccurrenceQueued", payload: { occurrenceId: queued, input: request.input, trigger: request.trigger } }]);
  await ports.alarm.wakeIn(0);
  return { ok: true, occurrenceId: queued, created: true };
}

/**
 * Decides an approval. The decision is bound to the hash of the arguments the approver saw: any
 * other hash is refused and nothing is appended. Deciding again the same way is a no-op; a
 * decided, expired approval or an ended run is refused.
 */
export async function decideApproval(ports: RunHostPorts, request: DecisionRequest): Promise<DecisionResult> {
  // Built before the state is read: its secret lookup awaits D1, which would let another call
  // interleave between the checks below and the append.
  const redact = request.reason ? await textRedactorOf(ports) : null;
  const state = (await readRunState(ports.log)).state;
  const asked = state.approvals.get(request.approvalId);
  if (!asked) return { ok: false, code: "approval_not_found", message: `No approval "${request.approvalId}" in this run` };
  const now = ports.clock.now();
  if (asked.argsHash !== request.argsHash)
    return {
      ok: false,
      code: "approval_args_mismatch",
      message: `Approval ${request.approvalId} is for arguments ${asked.argsHash}, not ${request.argsHash}`,
    };
  if (asked.decision) {
    if (asked.decision.decision === request.decision) return { ok: true, created: false, approval: approvalView(asked, now) };
    return {
      ok: false,
      code: "approval_already_decided",
      message: `Approval ${request.approvalId} was already ${asked.decision.decision}`,
    };
  }
  if (state.terminal) return { ok: false, code: "run_ended", message: `The run has ended (${state.status})` };
  if (now >= asked.expiresAt) return { ok: false, code: "approval_expired", message: `Approval ${request.approvalId} expired` };
  const decided = {
    approvalId: request.approvalId,
    decision: request.decision,
    argsHash: asked.argsHash,
    ...(request.reason ? { reason: redact ? redact(request.reason) : WITHHELD } : {}),
  };
  await ports.log.append([{ type: "ApprovalDecided", payload: decided }]);
  await ports.alarm.wakeIn(0);
  return { ok: true, created: true, approval: approvalView({ ...asked, decision: decided }, now) };
}

/**
 * Cancels the run: `RunCancelled` ends it (`onCancelled` then stops the slice in flight), the
 * index says so, its running child runs are cancelled, its parent (for a child run) is told, and the alarm is cleared. The reason is a client's text: it passes the run's
 * redactor like everything the host writes. False when the run had already ended.
 */
export async function cancelRun(
  ports: RunHostPorts,
  given: string,
  onCancelled: (reason: string) => void,
  /**
   * The host's note that the run's row is due (the run object's index mark), made in the cancel's
   * append turn: the host writes the row after its answer, and its alarm repairs a lost write, so
   * the cancel waits for no single-region database. Without it the row is written before the answer.
   */
  deferIndex?: () => void,
): Promise<boolean> {
  const redact = await textRedactorOf(ports);
  const reason = redact ? redact(given) : WITHHELD;
  const state = (await readRunState(ports.log)).state;
  if (state.terminal) return false;
  deferIndex?.();
  await ports.log.append([{ type: "RunCancelled", payload: { reason } }]);
  onCancelled(reason);
  if (!deferIndex)
    await indexRun(ports, state, "cancelled", { versionId: latestRegistration(state).versionId, progress: progressOf(state) });
  // Its running children are cancelled too; a child run tells its own parent it ended.
  await cancelChildren(ports, state, reason);
  await settleEnded(ports);
  return true;
}
