import { DurableObject } from "cloudflare:workers";
import { askGatesAtStart, type FlowPorts, flowPortsOf, hasFlowGates } from "../src/engine/flow/admit-flow.ts";
import { releaseEnded } from "../src/engine/flow/flow-slice.ts";
import { HeldSlots } from "../src/engine/flow/held-slots.ts";
import { LiveCalls } from "../src/engine/live/live-calls.ts";
import { driveAlarmSlice } from "../src/engine/run-host/alarm-slice.ts";
import { DriveLock } from "../src/engine/run-host/drive-lock.ts";
import { driveFailuresIn, indexDueIn, storageAlarm } from "../src/engine/run-host/host-meta.ts";
import { hostPortsOf } from "../src/engine/run-host/host-ports.ts";
import { eventPage, hostedView, NO_RUN, probeHostedRun } from "../src/engine/run-host/hosted-view.ts";
import { SettleWaiters } from "../src/engine/run-host/settle-waiters.ts";
import {
  cancelRun,
  decideApproval,
  emptyRunView,
  endRun,
  indexAfterAnswer,
  pauseRun,
  type RunHostPorts,
  recordChildEnd,
  resumeRun,
  rowAfterEnd,
  sendSignal,
  settlingIndex,
  startRun,
  triggerRun,
  viewRun,
} from "../src/engine/run-host.ts";
import type { FlowProbe } from "../src/ports/flow-limiter.ts";
import type { RunEvent } from "../src/ports/run-events.ts";
import type * as Rpc from "../src/ports/run-handle.ts";
import type { RunView, StartRunRequest, StartRunResult } from "../src/ports/run-handle.ts";
import type { RunObjectRpc } from "../src/ports/run-object-rpc.ts";
import { isEndedStatus, isSettledStatus } from "../src/ports/run-status.ts";
import { purgeHook, type RunObjectLog, wire } from "../src/wiring.ts";
import { eventStream } from "./event-stream.ts";
import { openRunLog } from "./run-log.ts";
import { RunMeta } from "./run-meta.ts";
import { DELETED_META_KEY, purgeRunStorage } from "./run-purge.ts";
import { sliceEnvironment } from "./slice-environment.ts";

/**
 * One run = one Durable Object (docs/runs.md, "Durability in the object"). Its SQLite holds
 * the append-only event log; what a run does is the run host's (`src/engine/run-host.ts`). This
 * object is glue: storage (the log, a `meta` table), the alarm that drives the run in slices, live
 * subscribers (SSE, waiters) and the RPC surface of {@link RunObjectRpc} (refusals as data).
 * Eviction, a crash or a deploy only pauses a run: the next alarm replays the log and goes on.
 */
export class RunObject extends DurableObject<Env> implements RunObjectRpc, Rpc.FlowRunHandle {
  private log: RunObjectLog | null = null;
  private readonly waiters = new SettleWaiters();
  private readonly subscribers = new Set<(events: readonly RunEvent[]) => void>();
  /** The model calls in flight and their text so far: live output, in memory only. */
  private readonly live = new LiveCalls();
  /** Aborts the slice in flight (its model and tool calls) when the run is cancelled. */
  private inflight: AbortController | null = null;
  /** Tells the slice in flight the run was paused: nothing new starts, its calls in flight finish. */
  private pausing: AbortController | null = null;
  /** The run's index row written after an answer (a start's, a cancel's), while it is in flight. */
  private indexing: Promise<unknown> | null = null;
  /** The `meta` table, through a copy in memory (run-meta.ts). */
  private readonly meta = new RunMeta(this.ctx.storage.sql);
  /** A started run whose index row has not landed yet (`meta.indexDue`). */
  private readonly indexDue = indexDueIn(this.meta);
  private readonly wakeUp = storageAlarm(this.ctx.storage);
  /** One driver at a time (drive-lock.ts); the limiters' latest answers (held-slots.ts). */
  private readonly drive = new DriveLock();
  private readonly held = new HeldSlots();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
  }

  /**
   * Starts the run and answers once its `RunRequested` is durable. The index row is written after
   * the answer (`meta.indexDue`, in the request's sync, is the alarm's repair mark); until it lands
   * the run is found here (find-tenant-run.ts). A repeat is compared here (`conflict` when it
   * differs), and `waitMs` waits for the end in the same call.
   */
  async start(request: StartRunRequest): Promise<StartRunResult> {
    const deleted = this.meta.get(DELETED_META_KEY);
    if (deleted) return { outcome: "deleted", deletedAt: Number(deleted) };
    const host = this.host(request.runId, request.tenant ?? "default");
    const started = await startRun(host, request, this.indexDue.mark);
    if (started.outcome === "conflict") return started;
    // Flow control: the workflow's own limiters are asked in this call (one RPC, no write, when a slot
    // is free; a queued run is answered `waiting`). The tenant's quota gates are the alarm's.
    const admission =
      started.outcome === "created" && hasFlowGates({ request }, { workflowOnly: true })
        ? await askGatesAtStart(this.flowPorts(host), started.events)
        : [];
    let view: RunView;
    if (started.outcome === "existing") view = await this.status();
    else {
      this.writeRowAfterAnswer(indexAfterAnswer(host));
      // A new run is exactly what its start appended: answered from those events, not a re-read of the log.
      view = await viewRun(request.runId, [...started.events, ...admission], wire(this.env).blobsFor, Date.now());
    }
    if (request.waitMs && !isSettledStatus(view.status, view.waitReason)) view = await this.waitForEnd(request.waitMs);
    return { outcome: started.outcome, view };
  }

  async status(): Promise<RunView> {
    const runId = this.meta.get("runId");
    if (!runId) return emptyRunView();
    return hostedView(runId, this.eventLog(runId), wire(this.env).blobsFor, () => this.flowPorts(this.host(runId)));
  }

  async events(options: Rpc.EventPageRequest = {}): Promise<RunEvent[]> {
    const runId = this.meta.get("runId");
    return runId ? eventPage(this.eventLog(runId), options) : [];
  }

  /**
   * Server-Sent Events from `after` on: what is logged already, then each event as it is appended,
   * ending after the terminal event. Each SSE `id` is the event's `seq` (for `Last-Event-ID`).
   */
  async stream(after: number, options: Rpc.StreamOptions = {}): Promise<ReadableStream<Uint8Array>> {
    const runId = this.meta.get("runId");
    return eventStream(runId ? this.eventLog(runId) : null, after, this.subscribers, options.deltas ? this.live : undefined);
  }

  async trigger(request: Rpc.TriggerRequest): Promise<Rpc.TriggerResult> {
    return this.withRun(async (host) => {
      const result = await triggerRun(host, request);
      return result.ok ? { ...result, view: await this.status() } : result;
    });
  }

  /** A child run of this one ended: `ChildRunEnded`, and the alarm drives the waiting step on. */
  async childEnded(request: Rpc.ChildEndedRequest): Promise<Rpc.ChildEndedResult> {
    return this.withRun((host) => recordChildEnd(host, request));
  }

  async decideApproval(request: Rpc.DecisionRequest): Promise<Rpc.DecisionResult> {
    return this.withRun((host) => decideApproval(host, request));
  }

  /** Takes a signal: answered once its `SignalReceived` is synced (signal-commands.ts). */
  async sendSignal(request: Rpc.SignalRequest): Promise<Rpc.SignalResult> {
    return this.withRun((host) => sendSignal(host, request));
  }

  /** Cancels the run: `RunCancelled` ends it; a slice in flight stops at its next append. */
  async cancel(reason = "cancelled by request"): Promise<RunView> {
    const runId = this.meta.get("runId");
    if (!runId) return this.status();
    const host = this.host(runId);
    const abort = (written: string) => this.inflight?.abort(new Error(`run cancelled: ${written}`));
    const cancelled = await cancelRun(host, reason, abort, this.indexDue.mark);
    if (cancelled) {
      this.waiters.notify();
      // Its row after the answer: no single-region round trip on a cancel (index-due.ts).
      this.writeRowAfterAnswer((await rowAfterEnd(host, this.wakeUp, (await this.ctx.storage.getAlarm()) !== null)).write);
    }
    // A cancelled run gives its slot back at once (a queued one leaves its queue).
    await releaseEnded(this.flowPorts(host));
    return this.status();
  }

  /** Pauses the run (pause-commands.ts); a slice in flight starts nothing new and yields with no alarm. */
  async pause(request: Rpc.PauseRequest): Promise<Rpc.PauseResult> {
    return this.withRun(async (host) => {
      const outcome = await pauseRun(host, request);
      if (!outcome.ok) return outcome;
      this.pausing?.abort();
      return { ...outcome, view: await this.status() };
    });
  }

  /** Resumes a paused run: its alarm drives it at once. */
  async resume(request: Rpc.PauseRequest): Promise<Rpc.PauseResult> {
    return this.withRun(async (host) => {
      const outcome = await resumeRun(host, request);
      return outcome.ok ? { ...outcome, view: await this.status() } : outcome;
    });
  }

  /** Ends the run with a named cause (a revoked approval, a superseded section); a slice in flight stops. */
  async end(request: Rpc.EndRunRequest): Promise<Rpc.EndRunResult> {
    return this.withRun(async (host) => {
      const result = await endRun(host, request, (message) => this.inflight?.abort(new Error(`run ended: ${message}`)));
      if (result.ok && result.ended) this.waiters.notify();
      await releaseEnded(this.flowPorts(host));
      return result;
    });
  }

  /** Deletes the ended run's storage and alarm, leaving the deleted marker (run-purge.ts); refused while it runs. */
  async purge(deletedAt: number): Promise<Rpc.PurgeResult> {
    const done = this.meta.get(DELETED_META_KEY);
    if (done) return { ok: true, deletedAt: Number(done) };
    const status = this.meta.get("runId") ? (await this.status()).status : null;
    if (status && !isEndedStatus(status)) return { ok: false, code: "run_active", status };
    this.log?.release();
    this.log = null;
    this.meta.forget();
    await purgeRunStorage(this.ctx, deletedAt, purgeHook(this.ctx));
    return { ok: true, deletedAt };
  }

  /** Flow control: the run's limiter admitted it; the alarm drives it now (it passes its gates again first). */
  async flowWake(): Promise<void> {
    if (this.meta.get("runId")) await this.ctx.storage.setAlarm(Date.now());
  }

  /** Flow control: the run's slot lease ran out; whether it has ended, is being driven now, or is idle. */
  async flowProbe(): Promise<FlowProbe> {
    const runId = this.meta.get("runId");
    return runId ? probeHostedRun(this.eventLog(runId), this.inflight !== null) : "ended";
  }

  /**
   * Resolves when the run has ended (or a section waits for a trigger), or after `timeoutMs`, with
   * the run as it then is. A run waiting for an approval is mid-work: the wait goes on.
   */
  async waitForEnd(timeoutMs: number): Promise<RunView> {
    const current = await this.status();
    if (isSettledStatus(current.status, current.waitReason)) return current;
    await this.waiters.wait(timeoutMs);
    return this.status();
  }

  override async alarm(): Promise<void> {
    const runId = this.meta.get("runId");
    // A start that crashed before appending its request leaves nothing to drive; its caller retries.
    if (!runId || (await this.eventLog(runId).page({ after: 0, limit: 1 })).length === 0) return;
    await this.drive.hold(() => this.driveSlice(runId, this.meta.get("tenant") ?? "default"));
  }

  private async driveSlice(runId: string, tenant: string): Promise<void> {
    const inflight = new AbortController();
    this.inflight = inflight;
    const pausing = new AbortController();
    this.pausing = pausing;
    try {
      const host = this.host(runId);
      const handles = { runId, tenant, runs: host.runs, signal: inflight.signal, pause: pausing.signal, live: this.live };
      await driveAlarmSlice({
        host,
        // A row write after an answer still in flight clears the mark itself: the slice does not wait for it.
        indexInFlight: this.indexing !== null,
        environment: () => sliceEnvironment(this.env, { ...handles, log: this.eventLog(runId) }),
        flow: this.flowPorts(host),
        alarm: this.wakeUp,
        indexDue: this.indexDue,
        failures: driveFailuresIn(this.meta),
        settled: () => this.waiters.notify(),
      });
    } finally {
      if (this.inflight === inflight) this.inflight = null;
      // A call cut by the slice's end (a cancel, a crash of the loop) is no longer live.
      this.live.clear();
      if (this.pausing === pausing) this.pausing = null;
      // Between slices the run holds none of its log: views and commands read the fold checkpoint.
      this.log?.release();
    }
  }

  /** A command of the run host for this object's run; `run_not_found` when it holds none. */
  private async withRun<T>(command: (host: RunHostPorts, runId: string) => Promise<T>): Promise<T | typeof NO_RUN> {
    const runId = this.meta.get("runId");
    return runId ? command(this.host(runId), runId) : NO_RUN;
  }

  private writeRowAfterAnswer(write: Promise<unknown>): void {
    const indexing = write.finally(() => {
      if (this.indexing === indexing) this.indexing = null;
    });
    this.indexing = indexing;
  }

  /** The run host's ports for this object's run. */
  private host(runId: string, tenant?: string): RunHostPorts {
    const wiring = wire(this.env);
    const log = this.eventLog(runId, tenant);
    const owner = tenant ?? this.meta.get("tenant") ?? "default";
    // The run index as this run writes it: its first row clears the repair mark (meta.indexDue).
    const runs = settlingIndex(wiring.runs, this.indexDue);
    return hostPortsOf(wiring, { runId, tenant: owner, log, runs, alarm: this.wakeUp, drive: this.drive });
  }

  /** What the run's flow-control gates work over (docs/flow-control.md). */
  private flowPorts(host: RunHostPorts): FlowPorts {
    return flowPortsOf(host, wire(this.env), this.held);
  }

  private eventLog(runId: string, tenant?: string): RunObjectLog {
    if (!this.log) {
      if (!this.meta.get("runId")) {
        this.meta.set("runId", runId);
        if (tenant) this.meta.set("tenant", tenant);
      }
      this.log = openRunLog(this.ctx, this.env, this.meta, runId, this.subscribers);
    }
    return this.log;
  }
}
