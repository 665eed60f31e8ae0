/**
 * The event union's one schema (src/ports/events) against what the engine really writes: every
 * event type has a payload schema that takes a well-formed payload and refuses a broken one, and
 * every event of every saved history (test/histories, recorded from real runs) reads back through
 * the same check the event logs apply to a stored row.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { decodeStoredEvent } from "../../src/ports/events/decode-stored-event.ts";
import { RUN_EVENT_PAYLOAD_SCHEMAS } from "../../src/ports/events/run-event-schema.ts";
import { RUN_EVENT_TYPES } from "../../src/ports/run-event-types.ts";
import type { RunEvent, RunEventPayloads, RunEventType } from "../../src/ports/run-events.ts";

const HASH = `sha256:${"0".repeat(64)}` as const;
const USAGE = { inputTokens: 1, outputTokens: 2, totalTokens: 3, costUsd: null };
const ERROR = { name: "Error", code: "tool_failed", message: "m", retriable: false };

/** One well-formed payload per event type: a new type without one here fails to compile. */
const SAMPLES: { [K in RunEventType]: RunEventPayloads[K] } = {
  RunRequested: {
    workflowId: "w",
    input: { a: 1 },
    trigger: { kind: "http", id: "k" },
    tenant: "t",
    flow: [{ kind: "throttle", index: 0, key: "*", limit: 1, periodMs: 1000 }],
  },
  "harness.session.started": { sessionId: "s", role: "planner", kind: "plan", manifestHash: HASH, manifest: {}, cycle: 1 },
  "harness.session.completed": { sessionId: "s", role: "worker", output: "o" },
  "harness.session.failed": { sessionId: "s", role: "fixer", causeCode: "model_error", message: "m" },
  "harness.model.called": { sessionId: "s", callId: "c", turn: 1, requestHash: HASH, modelSlotId: "m", providerId: "p", modelId: "m" },
  "harness.model.responded": {
    sessionId: "s",
    callId: "c",
    response: {},
    usage: USAGE,
    model: { providerId: "p", modelId: "m", offline: true },
  },
  "harness.model.failed": { sessionId: "s", callId: "c", error: ERROR },
  "harness.tool_call.started": { sessionId: "s", callId: "c", caller: "model", tool: "bash", args: {}, idempotencyKey: "k" },
  "harness.tool_call.succeeded": { sessionId: "s", callId: "c", tool: "bash", result: 1, scratch: { a: "b" } },
  "harness.tool_call.failed": { sessionId: "s", callId: "c", tool: "bash", error: ERROR },
  WorkflowVersionRegistered: { versionId: "v", versionHash: HASH, lockHash: HASH, definitionHash: HASH, warnings: [] },
  RunStarted: { versionId: "v", lockHash: HASH, cycle: 1, steps: 2 },
  StepScheduled: { stepPath: "a" },
  StepStarted: { stepPath: "a", attempt: 1, deadline: 5 },
  StepSucceeded: { stepPath: "a", attempt: 1, output: null, reused: { runId: "r", seq: 4 } },
  StepFailed: { stepPath: "a", attempt: 1, error: ERROR },
  StepRetried: { stepPath: "a", attempt: 1, retryAt: 9, error: ERROR },
  StepSkipped: { stepPath: "a", reason: "branch" },
  OuterLoopCycleCompleted: {
    cycleNumber: 1,
    status: "failed",
    output: null,
    decision: "replan",
    failure: { causeCode: "step_failed", message: "m", stepId: "a", succeededSteps: [{ stepId: "b", stepPath: "b", output: 1 }] },
  },
  ApprovalRequested: { approvalId: "a", stepPath: "s", tool: "t", args: {}, argsHash: HASH, expiresAt: 1 },
  ApprovalDecided: { approvalId: "a", decision: "denied", argsHash: HASH, reason: "no" },
  OccurrenceQueued: { occurrenceId: "o", input: {}, trigger: { kind: "webhook" } },
  OccurrenceStarted: { occurrenceId: "o" },
  OccurrenceCompleted: { occurrenceId: "o", output: 1 },
  OccurrenceFailed: { occurrenceId: "o", causeCode: "occurrence_timeout", message: "m", rearmed: true },
  RunCompleted: { output: { ok: true }, usage: USAGE, versionId: "v" },
  RunFailed: { causeCode: "internal_error", message: "m", details: { x: 1 } },
  RunCancelled: { reason: "r" },
  RunPaused: { by: "tok" },
  RunResumed: { by: "tok" },
  WaitStarted: { stepPath: "w", attempt: 1, kind: "signal", until: 9, signals: [{ name: "go", description: "d", schema: {} }] },
  SignalReceived: { signalId: "s", name: "go", payload: { a: 1 } },
  SignalConsumed: { signalId: "s", stepPath: "w" },
  ChildRunStarted: { stepPath: "c", attempt: 1, childRunId: "r", workflowId: "w", placement: { locationHint: "weur" } },
  ChildRunEnded: { stepPath: "c", attempt: 1, childRunId: "r", status: "failed", cause: { code: "step_failed", message: "m" } },
  FlowQueued: { kind: "concurrency", gate: 0, key: "k", position: 2, scope: "tenant" },
  FlowAdmitted: { kind: "throttle", gate: 1, key: "k", admittedAt: 5 },
  ModelRateLimited: { stepPath: "s", providerId: "p", modelId: "m", until: 5 },
  ModelRateLimitLifted: { stepPath: "s", providerId: "p", modelId: "m" },
};

const row = (type: string, payload: unknown, seq = 1) => ({ seq, type, at: 1, payload: JSON.stringify(payload) });

describe("the event union's schema", () => {
  it("has a payload schema for every event type, and the run-time list is its keys", () => {
    expect(Object.keys(SAMPLES).sort()).toEqual([...RUN_EVENT_TYPES].sort());
    expect(Object.keys(RUN_EVENT_PAYLOAD_SCHEMAS)).toEqual(RUN_EVENT_TYPES);
  });

  for (const type of RUN_EVENT_TYPES) {
    it(`${type}: takes a well-formed payload as it is, refuses an empty or non-object one`, () => {
      const payload = SAMPLES[type];
      expect(decodeStoredEvent("r", row(type, payload))).toEqual({ seq: 1, runId: "r", type, at: 1, payload });
      expect(() => decodeStoredEvent("r", row(type, {}, 4))).toThrow(expect.objectContaining({ code: "event_log_corrupt", seq: 4 }));
      expect(() => decodeStoredEvent("r", row(type, "text", 5))).toThrow(expect.objectContaining({ code: "event_log_corrupt", seq: 5 }));
    });
  }

  it("refuses each required field's absence and keeps every optional one optional (RunRequested)", () => {
    const full = SAMPLES.RunRequested;
    for (const key of ["workflowId", "input", "trigger", "tenant"] as const) {
      const { [key]: _dropped, ...rest } = full;
      expect(() => decodeStoredEvent("r", row("RunRequested", rest)), key).toThrow(expect.objectContaining({ code: "event_log_corrupt" }));
    }
    const minimal = { workflowId: "w", input: null, trigger: { kind: "cron" }, tenant: "t" };
    expect(decodeStoredEvent("r", row("RunRequested", minimal)).payload).toEqual(minimal);
  });
});

describe("every saved history parses (the schema matches what runs really write)", () => {
  const dir = resolve(import.meta.dirname, "../histories");
  const files = readdirSync(dir).filter((f) => f.endsWith(".json"));

  it("finds the histories", () => expect(files.length).toBeGreaterThanOrEqual(10));

  for (const file of files) {
    it(file, () => {
      const history = JSON.parse(readFileSync(join(dir, file), "utf8")) as { events: RunEvent[]; source?: { events: RunEvent[] } };
      const events = [...history.events, ...(history.source?.events ?? [])];
      expect(events.length).toBeGreaterThan(0);
      for (const event of events) {
        const stored = { seq: event.seq, type: event.type, at: event.at, payload: JSON.stringify(event.payload) };
        expect(decodeStoredEvent(event.runId, stored)).toEqual(event);
      }
    });
  }
});
