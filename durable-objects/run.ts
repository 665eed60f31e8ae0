import { DurableObject } from "cloudflare:workers";
import { type FlowPorts, flowPosition, hasFlowGates, passFlowGates } from "../src/engine/flow/admit-flow.ts";
import { driveFlowSlice, releaseEnded } from "../src/engine/flow/flow-slice.ts";
import { LiveCalls } from "../src/engine/live/live-calls.ts";
import { runEnvironment } from "../src/engine/run-environment.ts";
import {
  cancelRun,
  decideApproval,
  emptyRunView,
  endRun,
  type IndexDue,
  type IndexDueStore,
  indexStarted,
  onDriveError,
  pauseRun,
  type RunAlarm,
  type RunHostPorts,
  recordChildEnd,
  resumeRun,
  sendSignal,
  settlingIndex,
  startRun,
  triggerRun,
  viewRun,
  viewRunState,
} from "../src/engine/run-host.ts";
import { readRunState } from "../src/engine/run-state.ts";
import type { FlowProbe } from "../src/ports/flow-limiter.ts";
import type { RunEvent } from "../src/ports/run-events.ts";
import type {
  ChildEndedRequest,
  ChildEndedResult,
  DecisionRequest,
  DecisionResult,
  EndRunRequest,
  EndRunResult,
  EventPageRequest,
  FlowRunHandle,
  PauseRequest,
  PauseResult,
  PurgeResult,
  RunView,
  SignalRequest,
  SignalResult,
  StartRunRequest,
  StartRunResult,
  StreamOptions,
  TriggerRequest,
  TriggerResult,
} from "../src/ports/run-handle.ts";
import type { RunIndex } from "../src/ports/run-index.ts";
import type { RunObjectRpc } from "../src/ports/run-object-rpc.ts";
import { isEndedStatus, isSettledStatus } from "../src/ports/run-status.ts";
import { type RunObjectLog, runObjectLog, wire } from "../src/wiring.ts";
import { eventStream } from "./event-stream.ts";
import { RunMeta } from "./run-meta.ts";
import { DELETED_META_KEY, purgeRunStorage } from "./run-purge.ts";
import { RunTelemetry } from "./run-telemetry.ts";

/**
 * One run = one Durable Object (docs/runs.md, "Durability in the object"). Its SQLite holds
 * the append-only event log; what a run does is the run host's (`src/engine/run-host.ts`). This
 * object is glue: storage (the log, a `meta` table), the alarm that drives the run in slices, live
 * subscribers (SSE, waiters) and the RPC surface of {@link RunObjectRpc} (refusals as data). Eviction, a crash or a
 * deploy only pauses a run: the next alarm replays the log and goes on.
 */
export class RunObject extends DurableObject<Env> implements RunObjectRpc, FlowRunHandle {
  private log: RunObjectLog | null = null;
  private readonly waiters = new Set<() => void>();
  private readonly subscribers = new Set<(events: readonly RunEvent[]) => void>();
  /** The model calls in flight and their text so far: live output, in memory only. */
  private readonly live = new LiveCalls();
  /** Aborts the slice in flight (its model and tool calls) when the run is cancelled. */
  private inflight: AbortController | null = null;
  /** Tells the slice in flight the run was paused: nothing new starts, its calls in flight finish. */
  private pausing: AbortController | null = null;
  /** The new run's first index row, written after its start answered; the alarm waits for it. */
  private indexing: Promise<void> | null = null;
  /** The `meta` table, through a copy in memory (run-meta.ts). */
  private readonly meta = new RunMeta(this.ctx.storage.sql);
  /** A started run whose index row has not landed yet (`meta.indexDue`). */
  private readonly indexDue: IndexDueStore = {
    read: () => {
      const due = this.meta.get("indexDue");
      return due === null ? null : (JSON.parse(due) as IndexDue);
    },
    clear: () => this.meta.delete("indexDue"),
  };
  private readonly wakeUp: RunAlarm = {
    wakeIn: (delayMs) => this.ctx.storage.setAlarm(Date.now() + delayMs),
    wakeAt: (at) => this.ctx.storage.setAlarm(at),
    clear: () => this.ctx.storage.deleteAlarm(),
  };

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
  }

  /**
   * Starts the run and answers once its `RunRequested` is durable. The index row is written after
   * the answer: `meta.indexDue` goes into the same sync as the request, so a crash before the row
   * lands leaves the mark, and the alarm armed by the start writes the row first thing (the repair
   * path). Until then `GET /v1/runs/:id` finds the run here (src/api/run-access.ts). A repeat is
   * compared here (`conflict` when it differs), and `waitMs` waits for the end in the same call.
   */
  async start(request: StartRunRequest): Promise<StartRunResult> {
    const deleted = this.meta.get(DELETED_META_KEY);
    if (deleted) return { outcome: "deleted", deletedAt: Number(deleted) };
    const host = this.host(request.runId, request.tenant ?? "default");
    const started = await startRun(host, request, () => this.meta.set("indexDue", "{}"));
    if (started.outcome === "conflict") return started;
    // Flow control: the key's limiter admits or queues the run in this same call (one RPC when a
    // slot is free); the index row after the answer then shows it `waiting` when it queued. The
    // tenant's quota gates are not asked here: the alarm passes them, after this answer.
    const gated =
      started.outcome === "created" &&
      hasFlowGates({ request: started.events[0]?.type === "RunRequested" ? started.events[0].payload : null }, { workflowOnly: true });
    // A limiter that cannot be reached fails nothing: the run is durable, and its alarm asks again.
    if (gated)
      await passFlowGates(this.flowPorts(request.runId, host), (await readRunState(host.log)).state, {
        index: false,
        workflowOnly: true,
      }).catch((error: unknown) => console.error(`run ${request.runId}: flow-control admission deferred to the alarm: ${String(error)}`));
    let view: RunView;
    if (started.outcome === "existing") view = await this.status();
    else {
      this.indexing = indexStarted(host).catch((error: unknown) => {
        // The alarm writes it again (meta.indexDue is still set).
        console.error(
          `run ${request.runId}: index write after the start failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
      // A new run is exactly what its start appended: answered from those events, not a re-read of the log.
      view = gated ? await this.status() : await viewRun(request.runId, started.events, wire(this.env).blobsFor, Date.now());
    }
    if (request.waitMs && !isSettledStatus(view.status, view.waitReason)) view = await this.waitForEnd(request.waitMs);
    return { outcome: started.outcome, view };
  }

  async status(): Promise<RunView> {
    const runId = this.meta.get("runId");
    if (!runId) return emptyRunView();
    // The newest fold checkpoint and the events after it: a long run is never read whole to be shown.
    const folded = await readRunState(this.eventLog(runId));
    const view = await viewRunState(runId, folded, wire(this.env).blobsFor, Date.now());
    if (!view.queue) return view;
    // A queued run's place now, from its key's limiter (the fold has it as of its FlowQueued).
    const position = await flowPosition(this.flowPorts(runId, this.host(runId)), folded.state).catch(() => null);
    return { ...view, queue: { ...view.queue, position } };
  }

  async events(options: EventPageRequest = {}): Promise<RunEvent[]> {
    const runId = this.meta.get("runId");
    if (!runId) return [];
    return this.eventLog(runId).page({
      after: options.after ?? 0,
      limit: options.limit ?? 100,
      ...(options.types ? { types: options.types } : {}),
    });
  }

  /**
   * Server-Sent Events from `after` on: what is logged already, then each event as it is appended,
   * ending after the terminal event. Each SSE `id` is the event's `seq` (for `Last-Event-ID`).
   */
  async stream(after: number, options: StreamOptions = {}): Promise<ReadableStream<Uint8Array>> {
    const runId = this.meta.get("runId");
    return eventStream(runId ? this.eventLog(runId) : null, after, this.subscribers, options.deltas ? this.live : undefined);
  }

  async trigger(request: TriggerRequest): Promise<TriggerResult> {
    const runId = this.meta.get("runId");
    if (!runId) return { ok: false, code: "run_not_found", message: "No such run" };
    const result = await triggerRun(this.host(runId), request);
    return result.ok ? { ...result, view: await this.status() } : result;
  }

  /** A child run of this one ended: `ChildRunEnded`, and the alarm drives the waiting step on. */
  async childEnded(request: ChildEndedRequest): Promise<ChildEndedResult> {
    const runId = this.meta.get("runId");
    if (!runId) return { ok: false, code: "run_not_found", message: "No such run" };
    return recordChildEnd(this.host(runId), request);
  }

  async decideApproval(request: DecisionRequest): Promise<DecisionResult> {
    const runId = this.meta.get("runId");
    if (!runId) return { ok: false, code: "run_not_found", message: "No such run" };
    return decideApproval(this.host(runId), request);
  }

  /** Takes a signal: answered once its `SignalReceived` is synced (signal-commands.ts). */
  async sendSignal(request: SignalRequest): Promise<SignalResult> {
    const runId = this.meta.get("runId");
    if (!runId) return { ok: false, code: "run_not_found", message: "No such run" };
    return sendSignal(this.host(runId), request);
  }

  /** Cancels the run: `RunCancelled` ends it; a slice in flight stops at its next append. */
  async cancel(reason = "cancelled by request"): Promise<RunView> {
    const runId = this.meta.get("runId");
    if (!runId) return this.status();
    const host = this.host(runId);
    const cancelled = await cancelRun(host, reason, (written) => this.inflight?.abort(new Error(`run cancelled: ${written}`)));
    if (cancelled) this.notifySettled();
    // A cancelled run gives its slot back at once (a queued one leaves its queue).
    await releaseEnded(this.flowPorts(runId, host));
    return this.status();
  }

  /** Pauses the run (pause-commands.ts); a slice in flight starts nothing new and yields with no alarm. */
  async pause(request: PauseRequest): Promise<PauseResult> {
    const runId = this.meta.get("runId");
    if (!runId) return { ok: false, code: "run_not_found", message: "No such run" };
    const outcome = await pauseRun(this.host(runId), request);
    if (!outcome.ok) return outcome;
    this.pausing?.abort();
    return { ...outcome, view: await this.status() };
  }

  /** Resumes a paused run: its alarm drives it at once. */
  async resume(request: PauseRequest): Promise<PauseResult> {
    const runId = this.meta.get("runId");
    if (!runId) return { ok: false, code: "run_not_found", message: "No such run" };
    const outcome = await resumeRun(this.host(runId), request);
    return outcome.ok ? { ...outcome, view: await this.status() } : outcome;
  }

  /** Ends the run with a named cause (a revoked approval, a superseded section); a slice in flight stops. */
  async end(request: EndRunRequest): Promise<EndRunResult> {
    const runId = this.meta.get("runId");
    if (!runId) return { ok: false, code: "run_not_found", message: "No such run" };
    const host = this.host(runId);
    const result = await endRun(host, request, (message) => this.inflight?.abort(new Error(`run ended: ${message}`)));
    if (result.ok && result.ended) this.notifySettled();
    await releaseEnded(this.flowPorts(runId, host));
    return result;
  }

  /** Deletes the ended run's storage and alarm, leaving the deleted marker (run-purge.ts); refused while it runs. */
  async purge(deletedAt: number): Promise<PurgeResult> {
    const done = this.meta.get(DELETED_META_KEY);
    if (done) return { ok: true, deletedAt: Number(done) };
    if (this.meta.get("runId")) {
      const view = await this.status();
      if (!isEndedStatus(view.status)) return { ok: false, code: "run_active", status: view.status };
    }
    this.log?.release();
    this.log = null;
    this.meta.forget();
    await purgeRunStorage(this.ctx, deletedAt);
    return { ok: true, deletedAt };
  }

  /** Flow control: the run's limiter admitted it; the alarm drives it now (it passes its gates again first). */
  async flowWake(): Promise<void> {
    const runId = this.meta.get("runId");
    if (runId) await this.ctx.storage.setAlarm(Date.now());
  }

  /** Flow control: the run's slot lease ran out; whether it has ended, is being driven now, or is idle. */
  async flowProbe(): Promise<FlowProbe> {
    const runId = this.meta.get("runId");
    if (!runId) return "ended";
    const { state } = await readRunState(this.eventLog(runId));
    if (state.terminal) return "ended";
    // A paused run keeps its slot (docs/flow-control.md): the lease holds until it is resumed or ends.
    return this.inflight || state.paused ? "active" : "idle";
  }

  /**
   * Resolves when the run has ended (or, for a section, has run every queued occurrence and waits
   * for a trigger), or after `timeoutMs`, with the run as it then is. A run waiting for an
   * approval is mid-work: the wait goes on.
   */
  async waitForEnd(timeoutMs: number): Promise<RunView> {
    const current = await this.status();
    if (isSettledStatus(current.status, current.waitReason)) return current;
    await new Promise<void>((resolve) => {
      const waiters = this.waiters;
      const timer = setTimeout(done, Math.max(0, timeoutMs));
      function done() {
        clearTimeout(timer);
        waiters.delete(done);
        resolve();
      }
      waiters.add(done);
    });
    return this.status();
  }

  override async alarm(): Promise<void> {
    const runId = this.meta.get("runId");
    // A start that crashed before appending its request leaves nothing to drive; its caller retries.
    if (!runId || (await this.eventLog(runId).page({ after: 0, limit: 1 })).length === 0) return;
    const tenant = this.meta.get("tenant") ?? "default";
    const wiring = wire(this.env, { runId: `${tenant}:${runId}` });
    const inflight = new AbortController();
    this.inflight = inflight;
    const pausing = new AbortController();
    this.pausing = pausing;
    try {
      await this.indexing;
      // The repair path: a crash between the start's answer and its index row left the mark.
      if (this.indexDue.read()) await indexStarted(this.host(runId));
      const { settled } = await driveFlowSlice(
        runEnvironment(wiring, {
          runId,
          tenant,
          log: this.eventLog(runId),
          runs: this.runIndex(wiring.runs),
          signal: inflight.signal,
          pause: pausing.signal,
          bindings: this.env,
          liveOutput: this.live,
        }),
        this.flowPorts(runId, this.host(runId)),
        this.wakeUp,
      );
      if (this.meta.get("alarmFailures") !== "0") this.meta.set("alarmFailures", "0");
      if (settled) this.notifySettled();
    } catch (error) {
      const failures = Number(this.meta.get("alarmFailures") ?? "0") + 1;
      this.meta.set("alarmFailures", String(failures));
      if ((await onDriveError(this.host(runId), failures, error)).settled) {
        this.notifySettled();
        await releaseEnded(this.flowPorts(runId, this.host(runId)));
      }
    } finally {
      if (this.inflight === inflight) this.inflight = null;
      // A call cut by the slice's end (a cancel, a crash of the loop) is no longer live.
      this.live.clear();
      if (this.pausing === pausing) this.pausing = null;
      // Between slices the run holds none of its log: views and commands read the fold checkpoint.
      this.log?.release();
    }
  }

  /** The run host's ports for this object's run. */
  private host(runId: string, tenant?: string): RunHostPorts {
    const wiring = wire(this.env);
    const log = this.eventLog(runId, tenant);
    return {
      runId,
      log,
      runs: this.runIndex(wiring.runs),
      clock: wiring.clock,
      alarm: this.wakeUp,
      workflows: wiring.workflows,
      secrets: wiring.secrets,
      children: wiring.children,
      blobs: wiring.blobsFor({ tenant: tenant ?? this.meta.get("tenant") ?? "default", runId }),
    };
  }

  /** What the run's flow-control gates work over (docs/flow-control.md). */
  private flowPorts(runId: string, host: RunHostPorts): FlowPorts {
    const wiring = wire(this.env);
    return { runId, log: host.log, runs: host.runs, clock: host.clock, flow: wiring.flow, flowLeaseMs: wiring.flowLeaseMs };
  }

  /** The run index as this run writes it: its first row clears the repair mark (meta.indexDue). */
  private runIndex(runs: RunIndex): RunIndex {
    return settlingIndex(runs, this.indexDue);
  }

  private eventLog(runId: string, tenant?: string): RunObjectLog {
    if (!this.log) {
      if (!this.meta.get("runId")) {
        this.meta.set("runId", runId);
        if (tenant) this.meta.set("tenant", tenant);
      }
      const log = runObjectLog(this.ctx, runId, wire(this.env).clock, (events) => {
        for (const subscriber of [...this.subscribers]) subscriber(events);
        telemetry.afterAppend(events);
      });
      const cursor = {
        read: () => Number(this.meta.get("otlpCursor") ?? "0"),
        write: (seq: number) => this.meta.set("otlpCursor", String(seq)),
      };
      const telemetry = new RunTelemetry(this.ctx, this.env, runId, log, cursor);
      this.log = log;
    }
    return this.log;
  }

  private notifySettled(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
