import { decodeTagged } from "../../identity/tagged-json.ts";
import type { BlobOwner, BlobStore } from "../../ports/blob-store.ts";
import type { RunEvent } from "../../ports/run-events.ts";
import type { ApprovalView, AwaitedSignalView, ChildView, OccurrencesView, RunView } from "../../ports/run-handle.ts";
import { parseTraceparent, traceIdOf } from "../observability/trace-context.ts";
import { RunFailure } from "../run-failure.ts";
import { readRunResultOfState, runResultOfState } from "../run-result.ts";
import {
  type ApprovalProgress,
  type ChildProgress,
  type FoldedRun,
  foldFrom,
  progressOf,
  type RunState,
  waitingUntil,
} from "../run-state.ts";
import { signalView } from "./signal-commands.ts";

/** How many occurrences a run view lists. */
const LATEST_OCCURRENCES = 20;

/** The view of a run with nothing in its log (an object never started). */
export function emptyRunView(): RunView {
  return { runId: "", status: "pending", workflowId: null, tenant: null, eventCount: 0, createdAt: null };
}

/** A run as the API shows it, from its events (every one, from the first): {@link viewRunState} of their fold. */
export function viewRun(
  runId: string,
  events: readonly RunEvent[],
  blobsFor: (owner: BlobOwner) => BlobStore,
  now: number,
): Promise<RunView> {
  return viewRunState(runId, foldFrom(null, events), blobsFor, now);
}

/**
 * A run as the API shows it, from its folded state (a checkpoint and the events after it, see
 * `readRunState`), never the whole log: the result (output from its blob when stored by
 * reference), why it waits (the fold's wait reason), the request, a section's occurrences (the
 * fold's `section`: any occurrence event, a queued one included) and the approvals, pending ones
 * past `now` as expired.
 */
export async function viewRunState(
  runId: string,
  { state, seq }: FoldedRun,
  blobsFor: (owner: BlobOwner) => BlobStore,
  now: number,
): Promise<RunView> {
  const until = waitingUntil(state);
  return {
    ...(await resultOrOutputError(runId, state, blobsFor({ tenant: state.request?.tenant ?? "default", runId }))),
    ...(until !== null ? { waitingUntil: until } : {}),
    workflowId: state.request?.workflowId ?? null,
    tenant: state.request?.tenant ?? null,
    eventCount: seq,
    createdAt: state.request ? state.requestedAt : null,
    ...(state.request ? { input: state.request.input } : {}),
    ...(state.section ? { occurrences: occurrencesView(state) } : {}),
    ...(state.approvals.size > 0 ? { approvals: [...state.approvals.values()].map((a) => approvalView(a, now)) } : {}),
    ...(state.offlineModels.length > 0 ? { offlineModels: [...state.offlineModels] } : {}),
    ...(state.signals.size > 0 ? { signals: [...state.signals.values()].map((s) => signalView(s, true)) } : {}),
    ...awaitingSignals(state),
    ...rateLimited(state),
    ...(state.request?.parent ? { parent: { runId: state.request.parent.runId, stepPath: state.request.parent.stepPath } } : {}),
    ...(state.children.length > 0 ? { children: state.children.map(childView) } : {}),
    ...(state.flow?.queued && !state.terminal ? { queue: queueView(state.flow.queued) } : {}),
    ...(state.paused && !state.terminal ? { paused: state.paused } : {}),
    ...(state.request?.tags ? { tags: { ...state.request.tags } } : {}),
    ...(state.request ? { progress: progressOf(state) } : {}),
    ...(state.request ? { traceId: traceIdOf(runId, parseTraceparent(state.request.traceparent)) } : {}),
    ...memoLinks(state),
  };
}

/** The run this one restarts or forks (its request's memo). */
function memoLinks(state: RunState): Pick<RunView, "restartOf" | "forkOf"> {
  const memo = state.request?.memo;
  if (!memo) return {};
  if (memo.relation === "fork") return { forkOf: { runId: memo.sourceRunId } };
  return { restartOf: { runId: memo.sourceRunId, ...(memo.fromStep !== undefined ? { fromStep: memo.fromStep } : {}) } };
}

/** A child run as its parent's view lists it: running until its end is recorded. */
function childView(c: ChildProgress): ChildView {
  return {
    runId: c.childRunId,
    workflowId: c.workflowId,
    stepPath: c.stepPath,
    attempt: c.attempt,
    status: c.ended?.status ?? "running",
    ...(c.ended && c.ended.status !== "completed" ? { cause: c.ended.cause } : {}),
  };
}

/** The signals the run's open waits take, each once, with the step waiting for it. */
function awaitingSignals(state: RunState): Pick<RunView, "awaitingSignals"> {
  const out: AwaitedSignalView[] = [];
  for (const [stepPath, wait] of state.stepWaits) {
    if (wait.reason !== "signal") continue;
    for (const s of wait.signals) if (!out.some((o) => o.name === s.name)) out.push({ ...s, stepPath });
  }
  return out.length > 0 ? { awaitingSignals: out } : {};
}

/** The steps whose model call waits for its model's shared limit. */
function rateLimited(state: RunState): Pick<RunView, "rateLimited"> {
  const out: NonNullable<RunView["rateLimited"]> = [];
  for (const [stepPath, wait] of state.stepWaits)
    if (wait.reason === "rate_limit") out.push({ stepPath, providerId: wait.providerId, modelId: wait.modelId, until: wait.until });
  return out.length > 0 ? { rateLimited: out } : {};
}

/** A queued run's gate and key, with the position its FlowQueued recorded (the run object asks its limiter for the live one). */
function queueView(queued: NonNullable<NonNullable<RunState["flow"]>["queued"]>): NonNullable<RunView["queue"]> {
  return {
    kind: queued.kind,
    gate: queued.gate,
    key: queued.key,
    position: queued.position,
    ...(queued.scope ? { scope: queued.scope } : {}),
  };
}

/**
 * The run's result with its output read back; an output blob that is gone or altered is named in
 * `outputError` instead of failing the whole view (the run, its status and its log are intact).
 */
async function resultOrOutputError(
  runId: string,
  state: RunState,
  blobs: BlobStore,
): Promise<Awaited<ReturnType<typeof readRunResultOfState>> & Pick<RunView, "outputError">> {
  try {
    return await readRunResultOfState(runId, state, blobs);
  } catch (error) {
    if (!(error instanceof RunFailure)) throw error;
    const code = error.causeCode === "code_integrity" ? "output_integrity" : "output_missing";
    // Not the recorded value either: that is the blob's reference, not the output.
    const { output: _reference, ...result } = runResultOfState(runId, state);
    return { ...result, outputError: { code, message: error.message } };
  }
}

/** An approval as the API shows it: its decision, else waiting until it expires. */
export function approvalView(a: ApprovalProgress, now: number): ApprovalView {
  const status = a.decision?.decision ?? (now >= a.expiresAt ? "expired" : "waiting_for_approval");
  return {
    approvalId: a.approvalId,
    stepPath: a.stepPath,
    tool: a.tool,
    args: a.args,
    argsHash: a.argsHash,
    expiresAt: a.expiresAt,
    status,
    ...(a.decision?.reason ? { reason: a.decision.reason } : {}),
  };
}

function occurrencesView(state: RunState): OccurrencesView {
  const all = state.occurrences;
  return {
    total: all.length,
    completed: all.filter((o) => o.status === "completed").length,
    failed: all.filter((o) => o.status === "failed").length,
    pending: all.filter((o) => o.status === "queued" || o.status === "running").length,
    latest: all.slice(-LATEST_OCCURRENCES).map((o) => ({
      occurrenceId: o.occurrenceId,
      status: o.status,
      trigger: o.trigger,
      ...(o.output !== undefined ? { output: decodeTagged(o.output) } : {}),
      ...(o.cause ? { cause: o.cause } : {}),
    })),
  };
}
