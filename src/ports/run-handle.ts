import type { ModelOverrides } from "../identity/model-overrides.ts";
import type { Digest } from "../json/digest.ts";
import type { FlowGate, FlowGateKind, FlowProbe } from "./flow-limiter.ts";
import type { ChildOutcome, ParentRef, RunEvent, RunMemo, RunPlacement, RunTrigger } from "./run-events.ts";
import type { RunResult } from "./world.ts";

/** What `start` takes. */
export type StartRunRequest = {
  runId: string;
  workflowId: string;
  input: unknown;
  trigger: RunTrigger;
  tenant?: string;
  placement?: RunPlacement;
  /** LWIR to run as is, without a planner (`POST /v1/lwir/runs`). */
  lwir?: unknown;
  approvedDefinitionHash?: Digest;
  /** Which approval of that hash admitted the start (its `approvedAt`). */
  approvedAt?: number;
  pinnedVersionId?: string;
  /** The pinned version's full hash: what the run executes. */
  pinnedVersionHash?: Digest;
  /** Answer when the run has ended (or a section waits), or after this many ms: a start with `wait` is one call. */
  waitMs?: number;
  /** A child run's parent (a `workflow.run` step): recorded in `RunRequested`, told when the child ends. */
  parent?: ParentRef;
  /** The flow-control gates the run passes before it is driven (the start service renders their keys). */
  flow?: FlowGate[];
  /** The caller's W3C `traceparent`, normalized by the start service (recorded on `RunRequested`). */
  traceparent?: string;
  /** A restart or a fork: the run whose recorded step results it reuses. */
  memo?: RunMemo;
  /** A fork's model changes over the deployment's. */
  modelOverrides?: ModelOverrides;
  /** The run's tags, checked by the start service (recorded on `RunRequested`; part of a repeat's comparison). */
  tags?: Readonly<Record<string, string>>;
};

/**
 * What `start` answers: the run it created, or the one started before under this id (a repeat of
 * the same workflow, input, LWIR and tags), or `conflict` when that run was started with another
 * workflow, input, LWIR or tags (the run object compares; nothing of the run is sent back).
 */
export type StartRunResult =
  | { readonly outcome: "created" | "existing"; readonly view: RunView }
  | { readonly outcome: "conflict" }
  /** The run was deleted (`purge`): its id is never reused. */
  | { readonly outcome: "deleted"; readonly deletedAt: number };

/** What `purge` answers: done (also when it was done before), or refused because the run has not ended. */
export type PurgeResult =
  | { readonly ok: true; readonly deletedAt: number }
  | { readonly ok: false; readonly code: "run_active"; readonly status: string };

/** A run as the API shows it. */
export type RunView = RunResult & {
  /** When the wait ends by itself or expires (epoch ms): a sleep's retry, the earliest pending approval's expiry. */
  waitingUntil?: number;
  workflowId: string | null;
  tenant: string | null;
  eventCount: number;
  createdAt: number | null;
  input?: unknown;
  /** A section run's occurrences: counts, and the latest few with their outcome. */
  occurrences?: OccurrencesView;
  /** Tool calls that asked for approval, pending ones as `waiting_for_approval`. */
  approvals?: ApprovalView[];
  /** Models the offline model answered for (`provider/model`): present only when one did. */
  offlineModels?: string[];
  /**
   * A completed run whose output, stored by reference, cannot be read back: its blob is gone
   * (`output_missing`) or no longer matches its digest (`output_integrity`). `output` is then
   * absent; the run and its log are as they were.
   */
  outputError?: { code: "output_missing" | "output_integrity"; message: string };
  /** Signals sent to the run, in arrival order: present only when one was sent. */
  signals?: SignalView[];
  /** What the run's open `wait.signal` steps take, with each signal's payload schema (for a form): present only while one waits. */
  awaitingSignals?: AwaitedSignalView[];
  /** A child run: the run and the `workflow.run` step that started it. */
  parent?: { runId: string; stepPath: string };
  /** The child runs this run's `workflow.run` steps started, in start order. */
  children?: ChildView[];
  /** A run queued by flow control (`waitReason` `concurrency` or `throttle`): its key and its place in the key's queue (1 = next). */
  queue?: QueueView;
  /** The start's tags (`key` → `value`). */
  tags?: Record<string, string>;
  /** How far the run's steps are (docs/runs.md, "Progress"); present once the run has a request. */
  progress?: { stepsTotal: number | null; stepsEnded: number };
  /** A `paused` run: who paused it and when (epoch ms). */
  paused?: { by: string; at: number };
  /** The run's OpenTelemetry trace id (32 hex): the caller's when the start carried a `traceparent` (docs/observability.md). */
  traceId?: string;
  /** This run restarts that run (its recorded results reused up to `fromStep`). */
  restartOf?: { runId: string; fromStep?: string };
  /** This run is a fork of that run. */
  forkOf?: { runId: string };
  /** The restarts and forks started from this run (from the run links, not this run's log). */
  restarts?: string[];
  forks?: string[];
  /** Steps whose model call waits for its model's shared limit (`waitReason` `rate_limit`), with when the limiter expects to let it go. */
  rateLimited?: RateLimitedView[];
};

/** A step's model call waiting on its model's limiter; `until` is epoch ms (the limiter's estimate). */
export type RateLimitedView = { stepPath: string; providerId: string; modelId: string; until: number };

/** A signal as the API shows it; `receivedAt` is ISO-8601. */
export type SignalView = {
  id: string;
  name: string;
  receivedAt: string;
  consumed: boolean;
  /** The wait.signal step that consumed it. */
  consumedBy?: string;
  payload?: unknown;
};

/** A signal an open wait takes: its name, description and payload schema, and the step waiting for it. */
export type AwaitedSignalView = { name: string; description: string; schema: unknown; stepPath: string };

/** What sending a signal takes; `id` makes a resend idempotent (one delivery, the same answer). */
export type SignalRequest = { name: string; payload: unknown; id?: string };

/** What sending a signal answers: the signal (`created` false for a resend of its id), or why it was refused (nothing stored). */
export type SignalResult =
  | { ok: true; created: boolean; signal: SignalView }
  | {
      ok: false;
      code: "run_not_found" | "run_ended" | "signal_unknown" | "signal_payload_invalid" | "signal_id_conflict";
      message: string;
      details?: { declared?: string[]; findings?: unknown[] };
    };

/** A child run as its parent's view lists it. */
export type ChildView = {
  runId: string;
  workflowId: string;
  stepPath: string;
  attempt: number;
  status: "running" | "completed" | "failed" | "cancelled";
  cause?: { code: string; message: string };
};

/** What a child's run object tells its parent's when the child ends. */
export type ChildEndedRequest = { childRunId: string } & ChildOutcome;

/** What the parent answers: recorded (`created` false when it knew already), or why not. */
export type ChildEndedResult =
  | { ok: true; created: boolean }
  | { ok: false; code: "run_not_found" | "child_not_found" | "run_ended"; message: string };

/** Where a queued run waits: the gate, its key, and its position (null when the limiter could not be asked); `scope` `tenant` at a tenant quota. */
export type QueueView = { kind: FlowGateKind; gate: number; key: string; position: number | null; scope?: "tenant" };

export type OccurrencesView = {
  total: number;
  completed: number;
  failed: number;
  pending: number;
  latest: { occurrenceId: string; status: string; trigger: RunTrigger; output?: unknown; cause?: { code: string; message: string } }[];
};

/** An approval as the API shows it. */
export type ApprovalView = {
  approvalId: string;
  stepPath: string;
  tool: string;
  args: unknown;
  argsHash: string;
  expiresAt: number;
  status: "waiting_for_approval" | "approved" | "denied" | "expired";
  reason?: string;
};

/** What `trigger` takes: a section occurrence's input and the trigger that queued it. */
export type TriggerRequest = { input: unknown; trigger: RunTrigger };

/** What `trigger` answers: the occurrence queued (or found again by its trigger id), or why not. */
export type TriggerResult =
  | { ok: true; occurrenceId: string; created: boolean; view: RunView }
  | { ok: false; code: "run_not_found" | "run_ended" | "section_stale"; message: string };

/**
 * What ending a run with a named cause takes. `only` guards it: the run must have been started under
 * this approved definition hash, or be a section with no occurrence running.
 */
export type EndRunRequest = {
  causeCode: "definition_approval_revoked" | "section_superseded";
  message: string;
  details?: unknown;
  /** `approvedAt` narrows `approvedDefinitionHash` to one approval of it (a run that recorded another is left alone). */
  only?: { approvedDefinitionHash?: Digest; approvedAt?: number; waitingSection?: boolean };
};

/** An occurrence queued and never started: what a superseding section adopts. */
export type PendingOccurrence = { occurrenceId: string; input: unknown; trigger: RunTrigger };

/**
 * What ending a run answers: `ended` false when it had already ended with this cause (a retry),
 * with the occurrences it left queued either way; or why it was not ended.
 */
export type EndRunResult =
  | { ok: true; ended: boolean; pending: PendingOccurrence[] }
  | {
      ok: false;
      code: "run_not_found" | "run_ended" | "run_not_under_approval" | "run_not_a_section" | "section_not_waiting";
      message: string;
    };

/** What deciding an approval takes: the decision, bound to the hash of the arguments the approver saw. */
export type DecisionRequest = {
  approvalId: string;
  decision: "approved" | "denied";
  argsHash: string;
  reason?: string;
};

/** What deciding an approval answers. */
export type DecisionResult =
  | { ok: true; created: boolean; approval: ApprovalView }
  | {
      ok: false;
      code:
        | "run_not_found"
        | "approval_not_found"
        | "run_ended"
        | "approval_args_mismatch"
        | "approval_already_decided"
        | "approval_expired";
      message: string;
    };

/** `deltas`: also send the live model output (`event: delta`, docs/observability.md). */
export type StreamOptions = { readonly deltas?: boolean };
/** What pausing or resuming a run takes: who asks (a token's id, an RPC caller), recorded in `RunPaused`/`RunResumed`. */
export type PauseRequest = { by: string };

/**
 * What pausing or resuming answers: the run as it now is (`changed` false when it was paused, or
 * running, already: the answer is the same), or why not (nothing appended).
 */
export type PauseResult =
  | { ok: true; changed: boolean; view: RunView }
  | { ok: false; code: "run_not_found" | "run_ended"; message: string };

export type EventPageRequest = { after?: number; limit?: number; types?: string[] };

/**
 * What a run object's answer holds when it did what was asked. A run object answers over RPC, which
 * carries no error class, so its refusals travel as data (`{ ok: false, code, message }`, the `…Result`
 * unions, run-object-rpc.ts); the {@link RunHandle} port turns each into its named error
 * (run-refusal.ts), so a caller never maps a code by hand.
 */
export type Accepted<R> = Omit<Extract<R, { ok: true }>, "ok">;

/**
 * One run, as its callers (the API, the engine, the Cloudflare world, tests) reach it. In the
 * Worker it is a Durable Object RPC client (`src/adapters/cloudflare/run-client.ts`) over
 * `durable-objects/run.ts`. An expected refusal is thrown as a named error with a stable code
 * (`RunNotFoundError`, `RunEndedError`, `SectionStaleError`, `SignalRefusedError`,
 * `ApprovalRefusedError`, `RunEndRefusedError`, `ChildRunRefusedError`, `RunActiveError`, all in
 * src/sdk/errors/): nothing was appended. Test for one with `LittleError.is(error, code)`.
 */
export interface RunHandle {
  /**
   * Starts the run; starting an existing run id answers it as it is (`existing`), or `conflict`.
   * Only the engine's start service (`src/engine/runs/start-service.ts`) calls it: admission is there.
   */
  start(request: StartRunRequest): Promise<StartRunResult>;
  status(): Promise<RunView>;
  events(options?: EventPageRequest): Promise<RunEvent[]>;
  /** Server-Sent Events from `after` on, ending after the terminal event; with `deltas`, live model output too. */
  stream(after: number, options?: StreamOptions): Promise<ReadableStream<Uint8Array>>;
  cancel(reason?: string): Promise<RunView>;
  /** Pauses the run: nothing new starts until {@link resume}; calls in flight finish (docs/runs.md, "Pause and resume"). */
  pause(request: PauseRequest): Promise<Accepted<PauseResult>>;
  /** Resumes a paused run: it is driven again at once. */
  resume(request: PauseRequest): Promise<Accepted<PauseResult>>;
  trigger(request: TriggerRequest): Promise<Accepted<TriggerResult>>;
  decideApproval(request: DecisionRequest): Promise<Accepted<DecisionResult>>;
  /** Sends a signal: durable in the run's log before it answers; a `wait.signal` naming it takes it (first in, first out). */
  sendSignal(request: SignalRequest): Promise<Accepted<SignalResult>>;
  /** Ends the run with a named cause (`RunFailed`), stopping a slice in flight, as a cancel does. */
  end(request: EndRunRequest): Promise<Accepted<EndRunResult>>;
  /** The run once it has ended (or a section waits), or after `timeoutMs` as it then is. */
  waitForEnd(timeoutMs: number): Promise<RunView>;
  /** A child run of this one ended (its run object calls this): the waiting `workflow.run` step goes on. */
  childEnded(request: ChildEndedRequest): Promise<Accepted<ChildEndedResult>>;
  /**
   * Deletes everything the run object stores (its log, every key, its alarm) of an ended run,
   * leaving one marker so its id never starts a run again (`start` answers `deleted`). Only the
   * engine's deletion (src/engine/deletion/delete-run.ts) calls it. Again after it is done: the
   * same answer. A run that has not ended: `RunActiveError`.
   */
  purge(deletedAt: number): Promise<Accepted<PurgeResult>>;
}

/** What a run's flow-control limiter asks of its run object (docs/flow-control.md). */
export interface FlowRunHandle {
  /** The limiter admitted the run: drive it now (it passes its gates again, which answers admitted). */
  flowWake(): Promise<void>;
  /** The run's slot lease ran out: has it ended, is a slice of it running now, or is it idle (crashed, evicted, waiting)? */
  flowProbe(): Promise<FlowProbe>;
}

/** Opens the handle of a tenant's run; the placement says where its object lives. */
export interface RunHandles {
  open(tenant: string, runId: string, placement?: RunPlacement): RunHandle;
  /** Whether this runtime enforces jurisdictions (false under workerd: wrangler dev and tests). */
  jurisdictionsEnforced(): boolean;
}
