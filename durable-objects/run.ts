import { DurableObject } from "cloudflare:workers";
import { DurableObjectEventLog } from "../src/adapters/do-sqlite/do-event-log.ts";
import { driveRun } from "../src/engine/drive-run.ts";
import { describeError, runTextRedactor, type TextRedactor } from "../src/engine/run-redactor.ts";
import { readRunResult } from "../src/engine/run-result.ts";
import { type ApprovalProgress, deriveRunState, type RunState } from "../src/engine/run-state.ts";
import { canonicalJson } from "../src/identity/canonical-json.ts";
import type { Digest } from "../src/identity/digest.ts";
import { decodeTagged } from "../src/identity/tagged-json.ts";
import { isTerminalType, type RunEvent, type RunStatus, type RunTrigger } from "../src/ports/run-events.ts";
import type { RunPlacement } from "../src/ports/run-index.ts";
import type { RunResult } from "../src/ports/world.ts";

function approvalView(a: ApprovalProgress, now: number): ApprovalView {
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

import { currentOverrides, wire } from "../src/wiring.ts";

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
  pinnedVersionId?: string;
  /** The pinned version's full hash: what the run executes. */
  pinnedVersionHash?: Digest;
};

/** A run as the API shows it. */
export type RunView = RunResult & {
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
};

export type OccurrencesView = {
  total: number;
  completed: number;
  failed: number;
  pending: number;
  latest: { occurrenceId: string; status: string; trigger: RunTrigger; output?: unknown; cause?: { code: string; message: string } }[];
};

/** What `trigger` answers: the occurrence queued (or found again by its trigger id), or why not. */
export type TriggerResult =
  | { ok: true; occurrenceId: string; created: boolean; view: RunView }
  | { ok: false; code: "run_not_found" | "run_ended"; message: string };

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

/** How many occurrences a run view lists. */
const LATEST_OCCURRENCES = 20;

/** How long after a crash mid-slice the safety alarm resumes the run. */
const RESUME_AFTER_MS = 5_000;
/** What the run object writes instead of a text it could not redact (the run's secrets could not be revealed). */
const WITHHELD = "(withheld: the run's secrets could not be loaded to redact it)";

/** Unexpected drive errors before the run is failed as `internal_error`. */
const MAX_ALARM_FAILURES = 5;
/** Statuses a waiter is woken for: the run ended, or a section has nothing queued. */
const SETTLED: ReadonlySet<RunStatus> = new Set(["completed", "failed", "cancelled", "waiting"]);

/**
 * One run = one Durable Object (DESIGN.md, "Durability in a Durable Object"). Its SQLite holds
 * the append-only event log. `start` arms an alarm and appends the request; the alarm drives the
 * run in slices and re-arms before it yields, so eviction, a crash or a deploy only pauses it:
 * the next alarm replays the log and goes on. Live subscribers get each event as it is appended.
 */
export class RunObject extends DurableObject<Env> {
  private log: DurableObjectEventLog | null = null;
  private readonly waiters = new Set<() => void>();
  private readonly subscribers = new Set<(events: readonly RunEvent[]) => void>();
  /** Aborts the slice in flight (its model and tool calls) when the run is cancelled. */
  private inflight: AbortController | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
  }

  /** Starts the run; starting an existing run id returns it as it is (`created: false`). */
  async start(request: StartRunRequest): Promise<RunView & { created: boolean }> {
    const tenant = request.tenant ?? "default";
    const log = this.eventLog(request.runId, tenant);
    if ((await log.page({ after: 0, limit: 1 })).length > 0) return { ...(await this.status()), created: false };
    const placement = request.placement ?? {};
    // Refuse what the log cannot hold (a lone surrogate, a NaN) before arming anything.
    canonicalJson({ input: request.input ?? null, lwir: request.lwir ?? null });
    // Armed before the request is appended: a crash between the two still resumes the run.
    await this.ctx.storage.setAlarm(Date.now());
    const [requested] = await log.append([
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
          ...(request.pinnedVersionId !== undefined ? { pinnedVersionId: request.pinnedVersionId } : {}),
          ...(request.pinnedVersionHash !== undefined ? { pinnedVersionHash: request.pinnedVersionHash } : {}),
        },
      },
    ]);
    const at = requested?.at ?? Date.now();
    await wire(this.env).runs.upsert({
      tenant,
      runId: request.runId,
      workflowId: request.workflowId,
      status: "pending",
      triggerKind: request.trigger.kind,
      definitionHash: null,
      versionId: null,
      causeCode: null,
      placement,
      createdAt: at,
      updatedAt: at,
    });
    return { ...(await this.status()), created: true };
  }

  async status(): Promise<RunView> {
    const runId = this.getMeta("runId");
    if (!runId) return { runId: "", status: "pending", workflowId: null, tenant: null, eventCount: 0, createdAt: null };
    const events = await this.eventLog(runId).all();
    const state = deriveRunState(events);
    return {
      ...(await readRunResult(runId, events, wire(this.env).blobsFor({ tenant: state.request?.tenant ?? "default", runId }))),
      workflowId: state.request?.workflowId ?? null,
      tenant: state.request?.tenant ?? null,
      eventCount: events.length,
      createdAt: state.request ? state.requestedAt : null,
      ...(state.request ? { input: state.request.input } : {}),
      ...(events.some((e) => e.type === "OccurrenceStarted") ? { occurrences: occurrencesView(state) } : {}),
      ...(state.approvals.size > 0 ? { approvals: [...state.approvals.values()].map((a) => approvalView(a, Date.now())) } : {}),
      ...(state.offlineModels.length > 0 ? { offlineModels: [...state.offlineModels] } : {}),
    };
  }

  async events(options: { after?: number; limit?: number; types?: string[] } = {}): Promise<RunEvent[]> {
    const runId = this.getMeta("runId");
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
  async stream(after: number): Promise<ReadableStream<Uint8Array>> {
    const runId = this.getMeta("runId");
    const encoder = new TextEncoder();
    let last = after;
    let push: ((events: readonly RunEvent[]) => void) | null = null;
    const subscribers = this.subscribers;
    const log = runId ? this.eventLog(runId) : null;
    return new ReadableStream<Uint8Array>({
      start: async (controller) => {
        let closed = false;
        const send = (events: readonly RunEvent[]) => {
          if (closed) return;
          for (const event of events) {
            if (event.seq <= last) continue;
            last = event.seq;
            controller.enqueue(encoder.encode(`id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`));
            if (isTerminalType(event.type)) {
              closed = true;
              if (push) subscribers.delete(push);
              controller.close();
              return;
            }
          }
        };
        push = send;
        subscribers.add(send);
        controller.enqueue(encoder.encode(": little-workflow event stream\nretry: 1000\n\n"));
        if (!log) return;
        for (;;) {
          const page = await log.page({ after: last, limit: 1_000 });
          send(page);
          if (closed || page.length < 1_000) break;
        }
        // Resumed at or past the end (an EventSource reconnecting after the terminal event):
        // there is nothing more to wait for.
        if (!closed && deriveRunState(await log.all()).terminal) {
          closed = true;
          subscribers.delete(send);
          controller.close();
        }
      },
      cancel: () => {
        if (push) subscribers.delete(push);
      },
    });
  }

  /**
   * Queues a section occurrence: `OccurrenceQueued` with the trigger's payload, then an alarm to run
   * it. A trigger id seen before (an idempotency key, a webhook id) returns the same occurrence.
   */
  async trigger(request: { input: unknown; trigger: RunTrigger }): Promise<TriggerResult> {
    const runId = this.getMeta("runId");
    if (!runId) return { ok: false, code: "run_not_found", message: "No such run" };
    const log = this.eventLog(runId);
    const state = deriveRunState(await log.all());
    if (!state.request) return { ok: false, code: "run_not_found", message: "No such run" };
    if (state.terminal) return { ok: false, code: "run_ended", message: `The run has ended (${state.status}); it takes no more triggers` };
    const id = request.trigger.id;
    const seen =
      id === undefined
        ? undefined
        : state.occurrences.find((o) => o.trigger.kind === request.trigger.kind && o.trigger.id === id && o.occurrenceId !== "o1");
    if (seen) return { ok: true, occurrenceId: seen.occurrenceId, created: false, view: await this.status() };
    const occurrenceId = `o${state.occurrences.length + 1}`;
    await log.append([{ type: "OccurrenceQueued", payload: { occurrenceId, input: request.input, trigger: request.trigger } }]);
    await this.ctx.storage.setAlarm(Date.now());
    return { ok: true, occurrenceId, created: true, view: await this.status() };
  }

  /**
   * Decides an approval. The decision is bound to the hash of the arguments the approver saw: any
   * other hash is refused and nothing is appended. Deciding again the same way is a no-op.
   */
  async decideApproval(request: {
    approvalId: string;
    decision: "approved" | "denied";
    argsHash: string;
    reason?: string;
  }): Promise<DecisionResult> {
    const runId = this.getMeta("runId");
    if (!runId) return { ok: false, code: "run_not_found", message: "No such run" };
    // Built before the state is read: its secret lookup awaits D1, which would let another call
    // interleave between the checks below and the append.
    const redact = request.reason ? await this.textRedactor(runId) : null;
    const log = this.eventLog(runId);
    const state = deriveRunState(await log.all());
    const asked = state.approvals.get(request.approvalId);
    if (!asked) return { ok: false, code: "approval_not_found", message: `No approval "${request.approvalId}" in this run` };
    const now = wire(this.env).clock.now();
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
    await log.append([{ type: "ApprovalDecided", payload: decided }]);
    await this.ctx.storage.setAlarm(Date.now());
    return { ok: true, created: true, approval: approvalView({ ...asked, decision: decided }, now) };
  }

  /** Cancels the run: `RunCancelled` ends it; a slice in flight stops at its next append. */
  async cancel(given = "cancelled by request"): Promise<RunView> {
    const runId = this.getMeta("runId");
    if (!runId) return this.status();
    // The reason is a client's text: it passes the run's redactor like everything the object writes.
    const redact = await this.textRedactor(runId);
    const reason = redact ? redact(given) : WITHHELD;
    const log = this.eventLog(runId);
    const state = deriveRunState(await log.all());
    if (!state.terminal) {
      await log.append([{ type: "RunCancelled", payload: { reason } }]);
      this.inflight?.abort(new Error(`run cancelled: ${reason}`));
      await this.index(runId, state, "cancelled");
      await this.ctx.storage.deleteAlarm();
      this.notifyEnded();
    }
    return this.status();
  }

  /**
   * Resolves when the run has ended (or, for a section, has run every queued occurrence and waits),
   * or after `timeoutMs`, with the run as it then is.
   */
  async waitForEnd(timeoutMs: number): Promise<RunView> {
    const current = await this.status();
    if (SETTLED.has(current.status)) return current;
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
    const runId = this.getMeta("runId");
    // A start that crashed before appending its request leaves nothing to drive; its caller retries.
    if (!runId || (await this.eventLog(runId).page({ after: 0, limit: 1 })).length === 0) return;
    // Armed first: if this slice crashes, the run resumes from its log when this fires.
    await this.ctx.storage.setAlarm(Date.now() + RESUME_AFTER_MS);
    const wiring = wire(this.env, { runId: `${this.getMeta("tenant") ?? "default"}:${runId}` });
    const inflight = new AbortController();
    this.inflight = inflight;
    try {
      const result = await driveRun({
        runId,
        log: this.eventLog(runId),
        versions: wiring.versions,
        runs: wiring.runs,
        blobs: wiring.blobsFor({ tenant: this.getMeta("tenant") ?? "default", runId }),
        sandbox: wiring.sandbox,
        secrets: wiring.secrets,
        models: wiring.models,
        clock: wiring.clock,
        workflows: wiring.workflows,
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
        sliceMs: wiring.sliceMs,
        ...(wiring.modelTimeoutMs !== undefined ? { modelTimeoutMs: wiring.modelTimeoutMs } : {}),
        quotas: wiring.runQuotas,
        signal: inflight.signal,
      });
      this.setMeta("alarmFailures", "0");
      if (result.yielded) {
        await this.ctx.storage.setAlarm(result.wakeAt ?? Date.now());
        return;
      }
      // A trigger that arrived while this slice ran set an alarm this slice must not delete.
      const queued = result.waiting && deriveRunState(await this.eventLog(runId).all()).occurrences.some((o) => o.status === "queued");
      if (queued) await this.ctx.storage.setAlarm(Date.now());
      else await this.ctx.storage.deleteAlarm();
      this.notifyEnded();
    } catch (error) {
      await this.onDriveError(runId, error);
    } finally {
      if (this.inflight === inflight) this.inflight = null;
    }
  }

  private async onDriveError(runId: string, error: unknown): Promise<void> {
    const failures = Number(this.getMeta("alarmFailures") ?? "0") + 1;
    this.setMeta("alarmFailures", String(failures));
    // Everything written about the error, to the console and to the log, passes the run's redactor:
    // a slice that threw took its own redactor with it, and an error may quote a secret's value.
    const redact = await this.textRedactor(runId);
    console.error(`run ${runId}: drive slice failed (${failures}/${MAX_ALARM_FAILURES}): ${describeError(error, redact)}`);
    if (failures < MAX_ALARM_FAILURES) {
      await this.ctx.storage.setAlarm(Date.now() + 1_000 * 2 ** failures);
      return;
    }
    const log = this.eventLog(runId);
    const state = deriveRunState(await log.all());
    if (!state.terminal) {
      const reason = error instanceof Error ? error.message : String(error);
      const message = `The run failed ${failures} times in a row: ${redact ? redact(reason) : WITHHELD}`;
      await log.append([{ type: "RunFailed", payload: { causeCode: "internal_error", message } }]);
      await this.index(runId, state, "failed", "internal_error");
    }
    await this.ctx.storage.deleteAlarm();
    this.notifyEnded();
  }

  /** The run's redactor for text about a failed slice; null (write no error text) when it cannot be built. */
  private async textRedactor(runId: string): Promise<TextRedactor | null> {
    try {
      const request = deriveRunState(await this.eventLog(runId).all()).request;
      return request ? await runTextRedactor(wire(this.env), request) : (text) => text;
    } catch {
      return null;
    }
  }

  private async index(runId: string, state: RunState, status: RunStatus, causeCode: "internal_error" | null = null): Promise<void> {
    const request = state.request;
    if (!request) return;
    const wiring = wire(this.env);
    await wiring.runs.upsert({
      tenant: request.tenant,
      runId,
      workflowId: request.workflowId,
      status,
      triggerKind: request.trigger.kind,
      definitionHash: null,
      versionId: [...state.registered.values()].at(-1)?.versionId ?? null,
      causeCode,
      placement: request.placement ?? {},
      createdAt: state.requestedAt,
      updatedAt: wiring.clock.now(),
    });
  }

  private eventLog(runId: string, tenant?: string): DurableObjectEventLog {
    if (!this.log) {
      if (!this.getMeta("runId")) {
        this.setMeta("runId", runId);
        if (tenant) this.setMeta("tenant", tenant);
      }
      const ctx = this.ctx;
      this.log = new DurableObjectEventLog(ctx.storage, runId, wire(this.env).clock, {
        beforeAppend: (events) => currentOverrides().beforeAppend?.(events, ctx),
        afterAppend: (events) => {
          currentOverrides().afterAppend?.(events, ctx);
          for (const subscriber of [...this.subscribers]) subscriber(events);
        },
      });
    }
    return this.log;
  }

  private getMeta(key: string): string | null {
    return this.ctx.storage.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0]?.value ?? null;
  }

  private setMeta(key: string, value: string): void {
    this.ctx.storage.sql.exec(
      "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
      key,
      value,
    );
  }

  private notifyEnded(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
