import { DurableObject } from "cloudflare:workers";
import type { FlowAnswer, FlowGate, FlowLimiterRpc, FlowQueueView, FlowTicket } from "../src/ports/flow-limiter.ts";
import { directoryName } from "../src/ports/flow-limiter.ts";
import type { ModelLimiterRpc, ModelPermit } from "../src/ports/model-limiter.ts";
import type { ModelLimits } from "../src/sdk/model.ts";
import { wire } from "../src/wiring.ts";
import { ModelLimitTables } from "./model-limits.ts";

/** How long a throttle admission is remembered (a run asking again after a crash is answered, not counted twice). */
const THROTTLE_MEMORY_MS = 3_600_000;

type EntryRow = {
  run_id: string;
  seq: number;
  state: "queued" | "holding" | "started";
  lease_until: number | null;
  admitted_at: number | null;
  ticket: string;
};

/**
 * One flow-control key's limiter (docs/flow-control.md): a Durable Object per (tenant, workflow,
 * gate, key), named by `limiterName`, whose SQLite is the key's queue. Every change is SQL in one
 * synchronous turn, so a crash loses no queued run and admits none twice (the output gate holds an
 * answer until its writes are durable; callers ask again, and asking is idempotent per run id).
 *
 * - concurrency: `holding` entries hold a slot under a lease the run renews each slice; an
 *   expired lease makes the object ask the run (`flowProbe`): ended frees the slot, a slice in
 *   flight renews it, an idle run (crashed, evicted, in a long wait) goes back to the end of the
 *   queue and asks again when it resumes.
 * - throttle: `started` entries are the starts of the window (`periodMs`, sliding); the alarm
 *   admits the queue's head as the window allows.
 *
 * Admitting a queued run is a call to its run object (`flowWake`), which drives it. The same class
 * keeps a workflow's directory of keys (`report`, `list`) under `directoryName`, and serves as
 * each tenant's start quotas (`FlowGate.scope` `tenant`: one object per tenant and quota).
 */
export class FlowLimiterObject extends DurableObject<Env> implements FlowLimiterRpc, ModelLimiterRpc {
  /** The model-limit role (one object per tenant, provider and model): created on its first call. */
  private modelTables: ModelLimitTables | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    sql.exec(`CREATE TABLE IF NOT EXISTS flow_entries (run_id TEXT PRIMARY KEY, seq INTEGER NOT NULL, state TEXT NOT NULL,
      lease_until INTEGER, admitted_at INTEGER, ticket TEXT NOT NULL)`);
    sql.exec("CREATE INDEX IF NOT EXISTS flow_entries_queue ON flow_entries (state, seq)");
    sql.exec("CREATE TABLE IF NOT EXISTS flow_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    sql.exec("CREATE TABLE IF NOT EXISTS flow_directory (name TEXT PRIMARY KEY, view TEXT NOT NULL, version INTEGER NOT NULL)");
  }

  async acquire(ticket: FlowTicket, gate: FlowGate, leaseMs: number): Promise<FlowAnswer> {
    const now = this.now();
    this.remember(ticket, gate, leaseMs);
    const entry = this.entry(ticket.runId);
    if (!entry) this.enqueue(ticket);
    else if (entry.state === "holding") this.sql("UPDATE flow_entries SET lease_until = ? WHERE run_id = ?", now + leaseMs, ticket.runId);
    const woken = this.admit(now, ticket.runId);
    const after = this.entry(ticket.runId) as EntryRow;
    const answer: FlowAnswer =
      after.state === "queued" ? { admitted: false, position: this.positionOf(after) } : { admitted: true, at: after.admitted_at ?? now };
    // Not awaited: the asking run's start must not wait for others' wake-ups.
    void this.settle(now, woken);
    return answer;
  }

  async release(ticket: FlowTicket, _gate: FlowGate): Promise<void> {
    if (!this.entry(ticket.runId)) return;
    this.sql("DELETE FROM flow_entries WHERE run_id = ?", ticket.runId);
    const now = this.now();
    await this.settle(now, this.admit(now, null));
  }

  async position(runId: string): Promise<number | null> {
    const entry = this.entry(runId);
    return entry?.state === "queued" ? this.positionOf(entry) : null;
  }

  /** Lease checks and throttle windows: what is due is done, then the alarm is set for what is next. */
  override async alarm(): Promise<void> {
    const gate = this.gate();
    if (!gate) return;
    const now = this.now();
    if (gate.kind === "concurrency") await this.checkLeases(now);
    else
      this.sql(
        "DELETE FROM flow_entries WHERE state = 'started' AND admitted_at < ?",
        now - Math.max(THROTTLE_MEMORY_MS, gate.periodMs ?? 0),
      );
    await this.settle(this.now(), this.admit(this.now(), null));
  }

  /**
   * The directory role: a limiter's counts, reported after each change. Reports are not awaited on
   * the limiter's side, so they may arrive out of order: only a later `version` replaces a row.
   */
  async report(name: string, view: FlowQueueView, version: number): Promise<void> {
    this.sql(
      `INSERT INTO flow_directory (name, view, version) VALUES (?, ?, ?)
       ON CONFLICT(name) DO UPDATE SET view = excluded.view, version = excluded.version WHERE excluded.version > flow_directory.version`,
      name,
      JSON.stringify(view),
      version,
    );
  }

  async list(): Promise<FlowQueueView[]> {
    return this.rows<{ view: string }>("SELECT view FROM flow_directory ORDER BY name").map((r) => JSON.parse(r.view) as FlowQueueView);
  }

  /** Model limits (docs/flow-control.md): may this call of the model go now? */
  async modelAcquire(callKey: string, limits: ModelLimits, leaseMs: number): Promise<ModelPermit> {
    return this.models().acquire(callKey, limits, leaseMs, this.now());
  }

  async modelRelease(callKey: string, tokens: number): Promise<void> {
    this.models().release(callKey, tokens);
  }

  /** A provider's `Retry-After`: no call of this model starts before `until`, whichever run makes it. */
  async modelPause(until: number): Promise<void> {
    this.models().pause(until);
  }

  private models(): ModelLimitTables {
    this.modelTables ??= new ModelLimitTables(this.ctx.storage.sql);
    return this.modelTables;
  }

  /** Expired leases: ask each run how it stands; the answers are applied only to entries still expired. */
  private async checkLeases(now: number): Promise<void> {
    const expired = this.rows<EntryRow>("SELECT * FROM flow_entries WHERE state = 'holding' AND lease_until <= ?", now);
    const leaseMs = Number(this.meta("leaseMs") ?? 60_000);
    const runs = wire(this.env).flowRuns;
    const probes = await Promise.all(
      expired.map(async (e) => {
        const ticket = JSON.parse(e.ticket) as FlowTicket;
        return {
          e,
          probe: await runs
            .open(ticket)
            .flowProbe()
            .catch(() => "idle" as const),
        };
      }),
    );
    const at = this.now();
    for (const { e, probe } of probes) {
      const still = this.entry(e.run_id);
      if (still?.state !== "holding" || (still.lease_until ?? 0) > now) continue;
      if (probe === "ended") this.sql("DELETE FROM flow_entries WHERE run_id = ?", e.run_id);
      else if (probe === "active") this.sql("UPDATE flow_entries SET lease_until = ? WHERE run_id = ?", at + leaseMs, e.run_id);
      else this.sql("UPDATE flow_entries SET state = 'queued', seq = ?, lease_until = NULL WHERE run_id = ?", this.nextSeq(), e.run_id);
    }
  }

  /**
   * Admits the queue's head while the gate has room: a slot (concurrency) or a start of the window
   * (throttle). Synchronous, so no other call interleaves. Answers the runs to wake (not `asking`,
   * which learns it from its own answer).
   */
  private admit(now: number, asking: string | null): FlowTicket[] {
    const gate = this.gate();
    if (!gate) return [];
    const leaseMs = Number(this.meta("leaseMs") ?? 60_000);
    const woken: FlowTicket[] = [];
    let used = this.used(gate, now);
    while (used < gate.limit) {
      const head = this.rows<EntryRow>("SELECT * FROM flow_entries WHERE state = 'queued' ORDER BY seq LIMIT 1")[0];
      if (!head) break;
      if (gate.kind === "concurrency")
        this.sql(
          "UPDATE flow_entries SET state = 'holding', lease_until = ?, admitted_at = ? WHERE run_id = ?",
          now + leaseMs,
          now,
          head.run_id,
        );
      else this.sql("UPDATE flow_entries SET state = 'started', admitted_at = ? WHERE run_id = ?", now, head.run_id);
      if (head.run_id !== asking) woken.push(JSON.parse(head.ticket) as FlowTicket);
      used++;
    }
    return woken;
  }

  /** After a change: the next alarm, the wake-ups, and the counts for the directory. */
  private async settle(now: number, woken: readonly FlowTicket[]): Promise<void> {
    const gate = this.gate();
    if (!gate) return;
    const next =
      gate.kind === "concurrency"
        ? this.rows<{ at: number | null }>("SELECT MIN(lease_until) AS at FROM flow_entries WHERE state = 'holding'")[0]?.at
        : this.throttleOpensAt(gate, now);
    if (next !== null && next !== undefined) await this.ctx.storage.setAlarm(Math.max(next, Date.now()));
    const runs = wire(this.env).flowRuns;
    await Promise.allSettled([...woken.map((t) => runs.open(t).flowWake()), this.reportCounts(gate, now)]);
  }

  /** When the throttle window next has room for a queued run; null when none is queued. */
  private throttleOpensAt(gate: FlowGate, now: number): number | null {
    const queued = this.rows<{ n: number }>("SELECT COUNT(*) AS n FROM flow_entries WHERE state = 'queued'")[0]?.n ?? 0;
    const oldest = this.rows<{ at: number | null }>(
      "SELECT MIN(admitted_at) AS at FROM flow_entries WHERE state = 'started' AND admitted_at > ?",
      now - (gate.periodMs ?? 0),
    )[0]?.at;
    if (queued > 0) return oldest !== null && oldest !== undefined ? oldest + (gate.periodMs ?? 0) : now;
    // Nothing queued: only forgetting old admissions remains.
    return oldest !== null && oldest !== undefined ? oldest + THROTTLE_MEMORY_MS : null;
  }

  private used(gate: FlowGate, now: number): number {
    const [row] =
      gate.kind === "concurrency"
        ? this.rows<{ n: number }>("SELECT COUNT(*) AS n FROM flow_entries WHERE state = 'holding'")
        : this.rows<{ n: number }>(
            "SELECT COUNT(*) AS n FROM flow_entries WHERE state = 'started' AND admitted_at > ?",
            now - (gate.periodMs ?? 0),
          );
    return row?.n ?? 0;
  }

  private async reportCounts(gate: FlowGate, now: number): Promise<void> {
    // A tenant quota is no key of one workflow's: it is in no workflow's directory.
    if (gate.scope === "tenant") return;
    const tenant = this.meta("tenant");
    const workflowId = this.meta("workflowId");
    if (!tenant || !workflowId) return;
    const queued = this.rows<{ n: number }>("SELECT COUNT(*) AS n FROM flow_entries WHERE state = 'queued'")[0]?.n ?? 0;
    const view: FlowQueueView = {
      kind: gate.kind,
      index: gate.index,
      key: gate.key,
      limit: gate.limit,
      ...(gate.periodMs !== undefined ? { periodMs: gate.periodMs } : {}),
      running: this.used(gate, now),
      queued,
      updatedAt: now,
    };
    const version = Number(this.meta("reported") ?? "0") + 1;
    this.setMeta("reported", String(version));
    const namespace = this.env.FLOW;
    const directory = namespace.get(namespace.idFromName(directoryName(tenant, workflowId))) as unknown as FlowLimiterRpc;
    await directory.report(JSON.stringify([gate.kind, gate.index, gate.key]), view, version);
  }

  /** The gate as the latest start of this key stated it (a redeploy's new limit applies from its next start). */
  private remember(ticket: FlowTicket, gate: FlowGate, leaseMs: number): void {
    const gateJson = JSON.stringify(gate);
    if (this.meta("gate") !== gateJson) this.setMeta("gate", gateJson);
    if (this.meta("leaseMs") !== String(leaseMs)) this.setMeta("leaseMs", String(leaseMs));
    if (!this.meta("tenant")) {
      this.setMeta("tenant", ticket.tenant);
      this.setMeta("workflowId", ticket.workflowId);
    }
  }

  private enqueue(ticket: FlowTicket): void {
    this.sql(
      "INSERT INTO flow_entries (run_id, seq, state, ticket) VALUES (?, ?, 'queued', ?)",
      ticket.runId,
      this.nextSeq(),
      JSON.stringify(ticket),
    );
  }

  private positionOf(entry: EntryRow): number {
    const [row] = this.rows<{ n: number }>("SELECT COUNT(*) AS n FROM flow_entries WHERE state = 'queued' AND seq < ?", entry.seq);
    return (row?.n ?? 0) + 1;
  }

  private nextSeq(): number {
    const seq = Number(this.meta("seq") ?? "0") + 1;
    this.setMeta("seq", String(seq));
    return seq;
  }

  private gate(): FlowGate | null {
    const gate = this.meta("gate");
    return gate ? (JSON.parse(gate) as FlowGate) : null;
  }

  private entry(runId: string): EntryRow | undefined {
    return this.rows<EntryRow>("SELECT * FROM flow_entries WHERE run_id = ?", runId)[0];
  }

  private now(): number {
    return wire(this.env).clock.now();
  }

  private meta(key: string): string | null {
    return this.rows<{ value: string }>("SELECT value FROM flow_meta WHERE key = ?", key)[0]?.value ?? null;
  }

  private setMeta(key: string, value: string): void {
    this.sql("INSERT INTO flow_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", key, value);
  }

  private rows<T extends Record<string, SqlStorageValue>>(query: string, ...bindings: SqlStorageValue[]): T[] {
    return this.ctx.storage.sql.exec<T>(query, ...bindings).toArray();
  }

  private sql(query: string, ...bindings: SqlStorageValue[]): void {
    this.ctx.storage.sql.exec(query, ...bindings);
  }
}
