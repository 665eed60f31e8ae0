import { DurableObject } from "cloudflare:workers";
import { DurableObjectEventLog } from "../src/adapters/do-sqlite/do-event-log.ts";
import { driveRun } from "../src/engine/drive-run.ts";
import { runResultOf } from "../src/engine/run-result.ts";
import { deriveRunState } from "../src/engine/run-state.ts";
import type { RunEvent, RunEventType, RunTrigger } from "../src/ports/run-events.ts";
import type { RunResult } from "../src/ports/world.ts";
import { currentOverrides, wire } from "../src/wiring.ts";

/** What `start` takes. */
export type StartRunRequest = { runId: string; workflowId: string; input: unknown; trigger: RunTrigger; tenant?: string };

/** A run as the API shows it. */
export type RunView = RunResult & { workflowId: string | null; eventCount: number; createdAt: number | null };

/** How long after a crash mid-slice the safety alarm resumes the run. */
const RESUME_AFTER_MS = 5_000;
/** Unexpected drive errors before the run is failed as `internal_error`. */
const MAX_ALARM_FAILURES = 5;

/**
 * One run = one Durable Object (DESIGN.md, "Durability in a Durable Object"). Its SQLite holds
 * the append-only event log. `start` appends the request and arms an alarm; the alarm drives the
 * run in slices and re-arms before it yields, so eviction, a crash or a deploy only pauses it:
 * the next alarm replays the log and goes on.
 */
export class RunObject extends DurableObject<Env> {
  private log: DurableObjectEventLog | null = null;
  private readonly waiters = new Set<() => void>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
  }

  /** Starts the run; starting an existing run id returns it as it is. */
  async start(request: StartRunRequest): Promise<RunView & { created: boolean }> {
    const log = this.eventLog(request.runId);
    if ((await log.page({ after: 0, limit: 1 })).length > 0) return { ...(await this.status()), created: false };
    const tenant = request.tenant ?? "default";
    // Armed before the request is appended: a crash between the two still resumes the run.
    await this.ctx.storage.setAlarm(Date.now());
    const [requested] = await log.append([{ type: "RunRequested", payload: { workflowId: request.workflowId, input: request.input, trigger: request.trigger, tenant } }]);
    const wiring = wire(this.env);
    await wiring.versions.upsertRun({
      runId: request.runId,
      tenant,
      workflowId: request.workflowId,
      status: "pending",
      triggerKind: request.trigger.kind,
      definitionHash: null,
      versionId: null,
      causeCode: null,
      createdAt: requested?.at ?? wiring.clock.now(),
      updatedAt: requested?.at ?? wiring.clock.now(),
    });
    return { ...(await this.status()), created: true };
  }

  async status(): Promise<RunView> {
    const runId = this.runId();
    if (!runId) return { runId: "", status: "pending", workflowId: null, eventCount: 0, createdAt: null };
    const events = await this.eventLog(runId).all();
    const state = deriveRunState(events);
    return { ...runResultOf(runId, events), workflowId: state.request?.workflowId ?? null, eventCount: events.length, createdAt: state.request ? state.requestedAt : null };
  }

  async events(options: { after?: number; limit?: number; types?: RunEventType[] } = {}): Promise<RunEvent[]> {
    const runId = this.runId();
    if (!runId) return [];
    return this.eventLog(runId).page({ after: options.after ?? 0, limit: options.limit ?? 100, ...(options.types ? { types: options.types } : {}) });
  }

  /** Cancels the run: `RunCancelled` ends it; a slice in flight stops at its next append. */
  async cancel(reason = "cancelled by request"): Promise<RunView> {
    const runId = this.runId();
    if (!runId) return this.status();
    const log = this.eventLog(runId);
    const state = deriveRunState(await log.all());
    if (!state.terminal) {
      await log.append([{ type: "RunCancelled", payload: { reason } }]);
      const request = state.request;
      if (request) {
        const wiring = wire(this.env);
        await wiring.versions.upsertRun({
          runId,
          tenant: request.tenant,
          workflowId: request.workflowId,
          status: "cancelled",
          triggerKind: request.trigger.kind,
          definitionHash: null,
          versionId: [...state.registered.values()].at(-1)?.versionId ?? null,
          causeCode: null,
          createdAt: state.requestedAt,
          updatedAt: wiring.clock.now(),
        });
      }
      await this.ctx.storage.deleteAlarm();
      this.notify();
    }
    return this.status();
  }

  /** Resolves when the run has ended, or after `timeoutMs`, with the run as it then is. */
  async waitForEnd(timeoutMs: number): Promise<RunView> {
    const current = await this.status();
    if (current.status === "completed" || current.status === "failed" || current.status === "cancelled") return current;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      const waiters = this.waiters;
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
    const runId = this.runId();
    // A start that crashed before appending its request leaves nothing to drive; its caller retries.
    if (!runId || (await this.eventLog(runId).page({ after: 0, limit: 1 })).length === 0) return;
    // Armed first: if this slice crashes, the run resumes from its log when this fires.
    await this.ctx.storage.setAlarm(Date.now() + RESUME_AFTER_MS);
    const wiring = wire(this.env);
    try {
      const result = await driveRun({
        runId,
        log: this.eventLog(runId),
        versions: wiring.versions,
        sandbox: wiring.sandbox,
        models: wiring.models,
        clock: wiring.clock,
        workflows: wiring.workflows,
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
        sliceMs: wiring.sliceMs,
      });
      this.setMeta("alarmFailures", "0");
      if (result.yielded) {
        await this.ctx.storage.setAlarm(Date.now());
        return;
      }
      await this.ctx.storage.deleteAlarm();
      this.notify();
    } catch (error) {
      const failures = Number(this.getMeta("alarmFailures") ?? "0") + 1;
      this.setMeta("alarmFailures", String(failures));
      console.error(`run ${runId}: drive slice failed (${failures}/${MAX_ALARM_FAILURES})`, error);
      if (failures < MAX_ALARM_FAILURES) {
        await this.ctx.storage.setAlarm(Date.now() + 1_000 * 2 ** failures);
        return;
      }
      const log = this.eventLog(runId);
      if (!deriveRunState(await log.all()).terminal) {
        await log.append([{ type: "RunFailed", payload: { causeCode: "internal_error", message: `The run failed ${failures} times in a row: ${error instanceof Error ? error.message : String(error)}` } }]);
      }
      await this.ctx.storage.deleteAlarm();
      this.notify();
    }
  }

  private eventLog(runId: string): DurableObjectEventLog {
    if (!this.log) {
      if (!this.runId()) this.setMeta("runId", runId);
      const ctx = this.ctx;
      this.log = new DurableObjectEventLog(ctx.storage, runId, wire(this.env).clock, {
        beforeAppend: (events) => currentOverrides().beforeAppend?.(events, ctx),
        afterAppend: (events) => currentOverrides().afterAppend?.(events, ctx),
      });
    }
    return this.log;
  }

  private runId(): string | null {
    return this.getMeta("runId");
  }

  private getMeta(key: string): string | null {
    return this.ctx.storage.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0]?.value ?? null;
  }

  private setMeta(key: string, value: string): void {
    this.ctx.storage.sql.exec("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", key, value);
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
