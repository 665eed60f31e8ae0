import { describe, expect, it } from "vitest";
import { MemoryEventLog } from "../../src/adapters/memory/memory-event-log.ts";
import { PersistentMap, PersistentSet } from "../../src/engine/run-state/persistent-map.ts";
import {
  decodeRunState,
  deriveRunState,
  encodeRunState,
  foldFrom,
  RUN_STATE_FOLD,
  RUN_STATE_FOLD_VERSION,
  readRunState,
} from "../../src/engine/run-state.ts";
import { canonicalJson } from "../../src/json/canonical-json.ts";
import { digestText } from "../../src/json/digest.ts";
import type { EventLog } from "../../src/ports/event-log.ts";
import type { NewRunEvent, RunEvent, RunEventType } from "../../src/ports/run-events.ts";
import type { SavedHistory } from "../histories/record-scenario.ts";
import { completedRun, logOf } from "../inspector/events.ts";

const saved = import.meta.glob("../histories/*.json", { eager: true, import: "default" }) as Record<string, SavedHistory>;
const histories = Object.values(saved).sort((a, b) => a.scenario.localeCompare(b.scenario));

/** A small seeded PRNG (mulberry32): the same seed gives the same log. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type Loose = { readonly type: RunEventType; readonly payload: unknown };

const USAGE = { inputTokens: 3, outputTokens: 4, totalTokens: 7, costUsd: 0.01 };
const HASH = `sha256:${"a".repeat(64)}`;

/**
 * A random run: sections (occurrences queued, started, completed, failed and re-armed),
 * approvals asked and decided, steps fanned out, retried (sleeps), failed and skipped, outer-loop
 * cycles, model answers (offline ones too), each kind at random, ending at random or not.
 */
function randomLog(seed: number, length: number): RunEvent[] {
  const r = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)] as T;
  const step = () => `c1/${pick(["a", "b", "fan[0]", "fan[1]", "fan[2]", "loop@2", "d/x"])}`;
  const occurrence = () => pick(["o1", "o2", "o3", "o4"]);
  const approval = () => pick(["ap1", "ap2", "ap3"]);
  let cycle = 1;
  let at = 1_000;
  // Payloads only as complete as the fold reads them.
  const makers: (() => Loose)[] = [
    () => ({ type: "harness.session.started", payload: { sessionId: "s", role: "planner" } }),
    () => ({
      type: "harness.model.responded",
      payload: {
        sessionId: "s",
        callId: `m${Math.floor(r() * 9)}`,
        response: { text: "x" },
        usage: r() < 0.2 ? { ...USAGE, costUsd: null } : USAGE,
        model: { providerId: "p", modelId: pick(["m1", "m2"]), offline: r() < 0.3 },
      },
    }),
    () => ({
      type: "harness.tool_call.started",
      payload: { sessionId: "s", callId: "t", caller: "model", tool: "bash", args: {}, idempotencyKey: "k" },
    }),
    () => ({
      type: "WorkflowVersionRegistered",
      payload: { versionId: `wfver_${cycle}`, versionHash: HASH, lockHash: HASH, definitionHash: HASH, warnings: [] },
    }),
    () => ({ type: "RunStarted", payload: { versionId: `wfver_${cycle}`, lockHash: HASH, cycle } }),
    () => ({ type: "StepScheduled", payload: { stepPath: step() } }),
    () => ({
      type: "StepStarted",
      payload: { stepPath: step(), attempt: 1 + Math.floor(r() * 3), ...(r() < 0.3 ? { deadline: at + 500 } : {}) },
    }),
    () => ({
      type: "StepSucceeded",
      payload: { stepPath: step(), attempt: 1, output: { n: Math.floor(r() * 100), list: [1, "two", null] } },
    }),
    () => ({ type: "StepFailed", payload: { stepPath: step(), attempt: 2, error: { code: "tool_failed", message: "boom" } } }),
    () => ({
      type: "StepRetried",
      payload: { stepPath: step(), attempt: 1, retryAt: at + (r() < 0.5 ? 0 : 2_000), error: { message: "again" } },
    }),
    () => ({ type: "StepSkipped", payload: { stepPath: step(), reason: "not taken" } }),
    () => {
      const cycleNumber = cycle++;
      return {
        type: "OuterLoopCycleCompleted",
        payload: { cycleNumber, status: pick(["completed", "failed"] as const), output: { cycle: cycleNumber }, decision: "replan" },
      };
    },
    () => ({
      type: "ApprovalRequested",
      payload: { approvalId: approval(), stepPath: step(), tool: "refund", args: { amount: 5 }, argsHash: HASH, expiresAt: at + 60_000 },
    }),
    () => ({
      type: "ApprovalDecided",
      payload: {
        approvalId: approval(),
        decision: pick(["approved", "denied"] as const),
        argsHash: HASH,
        ...(r() < 0.5 ? { reason: "ok" } : {}),
      },
    }),
    () => ({
      type: "OccurrenceQueued",
      payload: {
        occurrenceId: occurrence(),
        input: { i: Math.floor(r() * 5) },
        trigger: { kind: "webhook", id: `w${Math.floor(r() * 3)}` },
      },
    }),
    () => ({ type: "OccurrenceStarted", payload: { occurrenceId: occurrence() } }),
    () =>
      r() < 0.5
        ? { type: "OccurrenceCompleted", payload: { occurrenceId: occurrence(), output: { done: true } } }
        : { type: "OccurrenceCompleted", payload: { occurrenceId: occurrence() } },
    () => ({
      type: "OccurrenceFailed",
      payload: { occurrenceId: occurrence(), causeCode: "step_failed", message: "m", rearmed: r() < 0.5 },
    }),
  ];
  const events: Loose[] = [{ type: "RunRequested", payload: { workflowId: "w", input: { q: 1 }, trigger: { kind: "http" }, tenant: "t" } }];
  while (events.length < length) events.push(pick(makers)());
  if (r() < 0.5)
    events.push(
      pick<Loose>([
        { type: "RunCompleted", payload: { output: { ok: true }, usage: USAGE, versionId: "wfver_1" } },
        { type: "RunFailed", payload: { causeCode: "step_failed", message: "m" } },
        { type: "RunCancelled", payload: { reason: "r" } },
      ]),
    );
  return events.map((e, i) => {
    at += Math.floor(r() * 50);
    return { seq: i + 1, runId: "run_random", type: e.type, at, payload: e.payload } as RunEvent;
  });
}

/** Folds `events` at once and from a checkpoint (encoded and decoded) after every one of them. */
function expectSameFromEveryCheckpoint(events: readonly RunEvent[]): void {
  const whole = deriveRunState(events);
  for (let k = 0; k <= events.length; k++) {
    const decoded = decodeRunState(encodeRunState(deriveRunState(events.slice(0, k))));
    expect(decoded).not.toBeNull();
    const resumed = foldFrom(decoded ? { state: decoded, seq: k } : null, events.slice(k));
    expect(resumed.seq).toBe(events.length);
    expect(resumed.state, `from a checkpoint after event ${k}`).toEqual(whole);
    // As data (key order aside: an occurrence's absent output comes back after its other fields).
    expect(canonicalJson(JSON.parse(encodeRunState(resumed.state)))).toBe(canonicalJson(JSON.parse(encodeRunState(whole))));
  }
}

describe("run state checkpoints: a lossless JSON form and foldFrom", () => {
  it("gives back maps and sets of the kinds the transitions need, in their insertion order", () => {
    const state = deriveRunState(randomLog(7, 200));
    const decoded = decodeRunState(encodeRunState(state));
    expect(decoded?.stepOutputs).toBeInstanceOf(PersistentMap);
    expect(decoded?.approvals).toBeInstanceOf(PersistentMap);
    expect(decoded?.scheduled).toBeInstanceOf(PersistentSet);
    expect(decoded?.registered).toBeInstanceOf(Map);
    expect(decoded?.started).toBeInstanceOf(Set);
    expect([...(decoded?.steps.keys() ?? [])]).toEqual([...state.steps.keys()]);
    expect([...(decoded?.stepWaits ?? [])]).toEqual([...state.stepWaits]);
  });

  it("every saved history folds the same at once and from a checkpoint after any of its events", () => {
    expect(histories.length).toBeGreaterThanOrEqual(6);
    for (const history of histories) expectSameFromEveryCheckpoint(history.events);
  });

  it("random runs (sections, approvals, retries, fan-out, cycles, offline models) fold the same from every checkpoint", () => {
    for (let seed = 1; seed <= 40; seed++) expectSameFromEveryCheckpoint(randomLog(seed, 20 + (seed % 7) * 15));
  });

  it("refuses a tail with a gap after its checkpoint", () => {
    const events = logOf(completedRun);
    const checkpoint = { state: deriveRunState(events.slice(0, 3)), seq: 3 };
    expect(() => foldFrom(checkpoint, events.slice(4))).toThrow(/event 5 follows 3/);
  });

  it("ignores a checkpoint of another fold version, or text that is no checkpoint", () => {
    const text = encodeRunState(deriveRunState(logOf(completedRun)));
    expect(decodeRunState(text)).not.toBeNull();
    const other = JSON.stringify({ ...JSON.parse(text), fold: RUN_STATE_FOLD_VERSION + 1 });
    expect(decodeRunState(other)).toBeNull();
    expect(decodeRunState("not json")).toBeNull();
    expect(decodeRunState("null")).toBeNull();
  });

  it("the fold of every saved history is pinned: a change to what the fold gives must bump RUN_STATE_FOLD_VERSION", async () => {
    // If this fails because a transition or the state's shape changed on purpose, bump
    // RUN_STATE_FOLD_VERSION (checkpoint.ts) so stored checkpoints of the old fold are ignored, then
    // update the digest and the version here together.
    const folds = histories.map((h) => `${h.scenario}\n${encodeRunState(deriveRunState(h.events))}`).join("\n");
    expect({ version: RUN_STATE_FOLD_VERSION, digest: await digestText(folds) }).toEqual({
      version: 3,
      digest: "sha256:4f0e793de3d6e2a26955db54d614853337e1865c99296e1bd433f302d798bd21",
    });
  });
});

/** The log, counting the events each of its reads returns. */
function counted(log: EventLog): { log: EventLog; read: () => number } {
  let read = 0;
  return {
    log: {
      runId: log.runId,
      append: (events) => log.append(events),
      all: async () => {
        const all = await log.all();
        read += all.length;
        return all;
      },
      page: async (options) => {
        const page = await log.page(options);
        read += page.length;
        return page;
      },
      checkpoint: () => log.checkpoint(),
    },
    read: () => read,
  };
}

describe("readRunState", () => {
  it("folds the newest checkpoint and the events after it: the same state, reading only the tail", async () => {
    const events = randomLog(11, 2_700).filter((e) => e.type !== "RunCompleted" && e.type !== "RunFailed" && e.type !== "RunCancelled");
    const memory = new MemoryEventLog("run_random", { now: () => 1 }, RUN_STATE_FOLD);
    for (let i = 0; i < events.length; i += 97)
      await memory.append(events.slice(i, i + 97).map((e) => ({ type: e.type, payload: e.payload }) as NewRunEvent));
    const { log, read } = counted(memory);
    const folded = await readRunState(log);
    expect(folded.seq).toBe(events.length);
    expect(folded.state).toEqual(deriveRunState(await memory.all()));
    // Checkpointed at the first append past 1,000 (seq 1,067), then 1,000 after that (2,134): only the events after it are read.
    expect((await memory.checkpoint())?.seq).toBe(2_134);
    expect(read()).toBe(events.length - 2_134);
  });

  it("folds a log without checkpoints from its first event, a page at a time", async () => {
    const memory = new MemoryEventLog("run_plain", { now: () => 1 });
    await memory.append(completedRun);
    const { log, read } = counted(memory);
    expect(await readRunState(log)).toEqual({ state: deriveRunState(await memory.all()), seq: completedRun.length });
    expect(read()).toBe(completedRun.length);
  });
});
