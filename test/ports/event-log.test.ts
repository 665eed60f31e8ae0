import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { DurableObjectEventLog } from "../../src/adapters/do-sqlite/do-event-log.ts";
import { MemoryEventLog } from "../../src/adapters/memory/memory-event-log.ts";
import type { LogFold } from "../../src/ports/event-log.ts";
import { eventLogContract, fakeClock } from "./event-log.contract.ts";
import { eventLogCheckpointContract } from "./event-log-checkpoint.contract.ts";
import { eventLogCorruptionContract } from "./event-log-corruption.contract.ts";

// The same contract, against every EventLog adapter.

eventLogContract("MemoryEventLog", (runId, clock, body) => body(new MemoryEventLog(runId, clock)));
eventLogCheckpointContract("MemoryEventLog", (runId, clock, fold, body) => body(new MemoryEventLog(runId, clock, fold)));
eventLogCorruptionContract("MemoryEventLog", (runId, body) => {
  const log = new MemoryEventLog(runId, fakeClock());
  return body(log, (row) => log.writeStoredRow(row));
});

// One Durable Object per run id (the contract gives every test a fresh id), so logs never share
// a table; the log is opened inside the object, over its own SQLite storage.
const inObject = <T>(runId: string, body: (state: DurableObjectState) => Promise<T>) =>
  runInDurableObject(env.RUNS.get(env.RUNS.idFromName(runId)), (_instance, state) => body(state));

eventLogContract(
  "DurableObjectEventLog",
  (runId, clock, body) => inObject(runId, (state) => body(new DurableObjectEventLog(state.storage, runId, clock))),
  { persistent: true },
);
eventLogCheckpointContract(
  "DurableObjectEventLog",
  (runId, clock, fold, body) => inObject(runId, (state) => body(new DurableObjectEventLog(state.storage, runId, clock, {}, fold))),
  { persistent: true },
);

eventLogCorruptionContract("DurableObjectEventLog", (runId, body) =>
  inObject(runId, (state) =>
    body(new DurableObjectEventLog(state.storage, runId, fakeClock()), (row) =>
      state.storage.sql.exec(
        "INSERT OR REPLACE INTO events (seq, type, at, payload) VALUES (?, ?, ?, ?)",
        row.seq,
        row.type,
        row.at,
        row.payload,
      ),
    ),
  ),
);

it("DurableObjectEventLog keeps only the newest checkpoint row in run_state", async () => {
  const runId = `run_checkpoint_rows_${crypto.randomUUID().replaceAll("-", "")}`;
  const fold: LogFold<unknown> = {
    every: 2,
    initial: 0,
    decode: Number,
    apply: (n, events) => (n as number) + events.length,
    encode: String,
  };
  const rows = await inObject(runId, async (state) => {
    const log = new DurableObjectEventLog(state.storage, runId, fakeClock(), {}, fold);
    for (let i = 0; i < 7; i++) await log.append([{ type: "StepStarted", payload: { stepPath: `s${i}`, attempt: 1 } }]);
    return state.storage.sql.exec<{ seq: number; state: string }>("SELECT seq, state FROM run_state").toArray();
  });
  expect(rows).toEqual([{ seq: 6, state: "6" }]);
});

it("DurableObjectEventLog: two log objects appending to one storage still checkpoint the fold of the whole log", async () => {
  const runId = `run_checkpoint_two_${crypto.randomUUID().replaceAll("-", "")}`;
  type Count = { n: number; last: number };
  // Refuses a gap, so folding on from a stale copy in memory would throw, not pass unnoticed.
  const fold: LogFold<unknown> = {
    every: 3,
    initial: { n: 0, last: 0 },
    decode: (text) => JSON.parse(text) as Count,
    apply: (state, events) =>
      events.reduce((c: Count, e) => {
        if (e.seq !== c.last + 1) throw new Error(`gap: ${e.seq} after ${c.last}`);
        return { n: c.n + 1, last: e.seq };
      }, state as Count),
    encode: JSON.stringify,
  };
  const step = (i: number) => [{ type: "StepStarted" as const, payload: { stepPath: `s${i}`, attempt: 1 } }];
  const checkpoint = await inObject(runId, async (state) => {
    const a = new DurableObjectEventLog(state.storage, runId, fakeClock(), {}, fold);
    const b = new DurableObjectEventLog(state.storage, runId, fakeClock(), {}, fold);
    for (let i = 1; i <= 4; i++) await a.append(step(i));
    for (let i = 5; i <= 6; i++) await b.append(step(i));
    for (let i = 7; i <= 12; i++) await a.append(step(i));
    return a.checkpoint();
  });
  // Whichever object wrote it, it is the fold of every event up to its seq (the newest due one: 10).
  expect(checkpoint).toEqual({ seq: 10, state: JSON.stringify({ n: 10, last: 10 }) });
});

it("DurableObjectEventLog serves pages from its in-memory copy during a slice, the same pages as SQLite", async () => {
  const runId = `run_page_cache_${crypto.randomUUID().replaceAll("-", "")}`;
  const pages = await inObject(runId, async (state) => {
    const log = new DurableObjectEventLog(state.storage, runId, fakeClock());
    const cold = new DurableObjectEventLog(state.storage, runId, fakeClock());
    await log.append([{ type: "RunRequested", payload: { workflowId: "w", input: 1, trigger: { kind: "http" }, tenant: "t" } }]);
    await log.all(); // the slice's copy
    await log.append([{ type: "RunCancelled", payload: { reason: "a" } }]);
    // `cold` never read the whole log: it answers every page from SQLite.
    const read = (l: DurableObjectEventLog) =>
      Promise.all([
        l.page({ after: 0, limit: 1 }),
        l.page({ after: 1, limit: 10 }),
        l.page({ after: 2, limit: 10 }),
        l.page({ after: 9, limit: 10 }),
      ]);
    return { warm: await read(log), cold: await read(cold) };
  });
  expect(pages.warm).toEqual(pages.cold);
  expect(pages.warm.map((p) => p.map((e) => e.seq))).toEqual([[1], [2], [], []]);
});
