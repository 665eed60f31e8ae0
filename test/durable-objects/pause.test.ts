import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RunObject } from "../../durable-objects/run.ts";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import type { RunEvent } from "../../src/ports/run-events.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { rawRunStub, runStub } from "../support/drive.ts";
import { echoCalls, sectionCatalog, sectionLwir } from "../support/section-workflow.ts";

const offline = new EnvModelResolver({ mode: "offline", secrets: {} });

beforeEach(() => overrideWiring({ models: offline, workflows: sectionCatalog() }));
afterEach(() => overrideWiring({}));

function isReset(error: unknown): boolean {
  return /reset|abort/i.test(String((error as Error)?.message)) || (error as { durableObjectReset?: boolean })?.durableObjectReset === true;
}

const events = (runId: string): Promise<RunEvent[]> => runStub(runId).events({ limit: 1000 });
const alarmOf = (runId: string) => runInDurableObject(rawRunStub(runId), (_o: RunObject, state) => state.storage.getAlarm());

/** Runs the object's alarms by hand (never sleeping) until none is set. */
async function drainAlarms(runId: string, max = 30): Promise<void> {
  for (let i = 0; i < max; i++) {
    try {
      if (!(await runDurableObjectAlarm(rawRunStub(runId)))) return;
    } catch (error) {
      if (!isReset(error)) throw error;
    }
  }
  throw new Error(`run ${runId} still has an alarm after ${max}`);
}

async function startSection(text: string): Promise<string> {
  const runId = `pause_${crypto.randomUUID().slice(0, 12)}`;
  const workflow = sectionCatalog().get("section.continue");
  if (!workflow) throw new Error("section.continue");
  await runStub(runId).start({
    runId,
    workflowId: "section.continue",
    input: { text, fail: false },
    trigger: { kind: "programmatic" },
    lwir: await sectionLwir(workflow),
  });
  return runId;
}

/** Runs `act` with the run object aborted right after it appends its first `type` event; checks it crashed. */
async function crashAfterAppending(type: RunEvent["type"], act: () => Promise<unknown>): Promise<void> {
  let crashed = false;
  overrideWiring({
    models: offline,
    workflows: sectionCatalog(),
    afterAppend: (appended, ctx) => {
      if (!crashed && appended.some((e) => e.type === type)) {
        crashed = true;
        ctx.abort();
      }
    },
  });
  await act().catch(() => undefined);
  expect(crashed, `the object crashed after appending ${type}`).toBe(true);
}

describe("pause and resume in the run object", () => {
  it("a paused section queues its triggers; they run after the resume, in order", async () => {
    const tag = crypto.randomUUID().slice(0, 6);
    const runId = await startSection(`first-${tag}`);
    await drainAlarms(runId);
    expect((await runStub(runId).status()).waitReason).toBe("trigger");

    const paused = await runStub(runId).pause({ by: "test" });
    expect(paused).toMatchObject({ changed: true, view: { status: "paused", paused: { by: "test" } } });
    for (const n of [2, 3]) {
      const queued = await runStub(runId).trigger({ input: { text: `t${n}-${tag}`, fail: false }, trigger: { kind: "http" } });
      expect(queued).toMatchObject({ created: true, view: { status: "paused" } });
    }
    // The triggers armed the alarm; it finds the run paused, starts nothing and leaves no alarm.
    await drainAlarms(runId);
    expect(await alarmOf(runId)).toBeNull();
    expect(echoCalls.get(`t2-${tag}`)).toBeUndefined();
    expect((await events(runId)).filter((e) => e.type === "OccurrenceStarted")).toHaveLength(1);

    expect(await runStub(runId).resume({ by: "test" })).toMatchObject({ changed: true });
    await drainAlarms(runId);
    const started = (await events(runId)).filter((e) => e.type === "OccurrenceStarted").map((e) => e.payload);
    expect(started).toEqual([{ occurrenceId: "o1" }, { occurrenceId: "o2" }, { occurrenceId: "o3" }]);
    expect([echoCalls.get(`t2-${tag}`), echoCalls.get(`t3-${tag}`)]).toEqual([1, 1]);
    expect((await runStub(runId).status()).waitReason).toBe("trigger");
    // Resuming a run that is not paused changes nothing.
    expect(await runStub(runId).resume({ by: "test" })).toMatchObject({ changed: false });
  });

  it("a crash between the pause's append and its answer: the retry answers paused, once, and the run resumes", async () => {
    const tag = crypto.randomUUID().slice(0, 6);
    const runId = await startSection(`crash-${tag}`);
    await drainAlarms(runId);
    await crashAfterAppending("RunPaused", () => runStub(runId).pause({ by: "test" }));
    // The pause is durable: a fresh stub sees it, and a retried pause answers it without a second event.
    expect((await runStub(runId).status()).status).toBe("paused");
    expect(await runStub(runId).pause({ by: "test" })).toMatchObject({ changed: false, view: { status: "paused" } });
    expect((await events(runId)).filter((e) => e.type === "RunPaused")).toHaveLength(1);
    // Whatever alarm survived the crash finds the run paused and ends without re-arming.
    await drainAlarms(runId);

    const resumed = await runStub(runId).resume({ by: "test" });
    expect(resumed).toMatchObject({ changed: true });
    await runStub(runId).trigger({ input: { text: `after-${tag}`, fail: false }, trigger: { kind: "http" } });
    await drainAlarms(runId);
    expect(echoCalls.get(`after-${tag}`)).toBe(1);
    const log = await events(runId);
    expect(log.map((e) => e.seq)).toEqual(log.map((_, i) => i + 1));
  });

  it("a crash between the resume's append and its answer still drives the run (the alarm was armed first)", async () => {
    const tag = crypto.randomUUID().slice(0, 6);
    const runId = await startSection(`resume-${tag}`);
    await drainAlarms(runId);
    await runStub(runId).pause({ by: "test" });
    await runStub(runId).trigger({ input: { text: `queued-${tag}`, fail: false }, trigger: { kind: "http" } });
    await drainAlarms(runId);
    await crashAfterAppending("RunResumed", () => runStub(runId).resume({ by: "test" }));
    expect(await alarmOf(runId)).not.toBeNull();
    await drainAlarms(runId);
    expect(echoCalls.get(`queued-${tag}`)).toBe(1);
    expect((await events(runId)).filter((e) => e.type === "RunResumed")).toHaveLength(1);
  });

  it("an ended run refuses a pause (run_ended) and a paused run keeps its flow-control slot", async () => {
    const runId = await startSection(`ended-${crypto.randomUUID().slice(0, 6)}`);
    await drainAlarms(runId);
    await runStub(runId).pause({ by: "test" });
    expect(await runInDurableObject(rawRunStub(runId), (o: RunObject) => o.flowProbe())).toBe("active");
    await runStub(runId).cancel("done");
    await expect(runStub(runId).pause({ by: "test" })).rejects.toMatchObject({ name: "RunEndedError", code: "run_ended" });
    expect(await runInDurableObject(rawRunStub(runId), (o: RunObject) => o.flowProbe())).toBe("ended");
  });
});
