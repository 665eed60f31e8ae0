import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { catalogOf } from "../../src/engine/run-environment.ts";
import type { RunEvent } from "../../src/ports/run-events.ts";
import type { RunView } from "../../src/ports/run-handle.ts";
import { isSettledStatus } from "../../src/ports/run-status.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { rawRunStub, runStub } from "../support/drive.ts";
import { echoCalls, sectionCatalog, sectionLwir, sectionWorkflow } from "../support/section-workflow.ts";

const offline = new EnvModelResolver({ mode: "offline", secrets: {} });
let crashed = new Set<string>();

beforeEach(() => overrideWiring({ models: offline, workflows: sectionCatalog() }));
afterEach(() => overrideWiring({}));

function isReset(error: unknown): boolean {
  return /reset|abort/i.test(String((error as Error)?.message)) || (error as { durableObjectReset?: boolean })?.durableObjectReset === true;
}

/** Runs alarms (never sleeping) until the run waits for a trigger or ends; aborts are taken up with fresh stubs. */
async function settle(runId: string, maxAlarms = 30): Promise<RunView> {
  for (let i = 0; i < maxAlarms; i++) {
    let ran = false;
    try {
      ran = await runDurableObjectAlarm(rawRunStub(runId));
    } catch (error) {
      if (!isReset(error)) throw error;
      continue;
    }
    const view = await runStub(runId).status();
    if (isSettledStatus(view.status, view.waitReason) && !ran) return view;
    if (isSettledStatus(view.status, view.waitReason) && view.occurrences?.pending === 0) return view;
  }
  throw new Error(`run ${runId} did not settle within ${maxAlarms} alarms`);
}

async function startSection(workflowId: string, text: string): Promise<string> {
  const runId = `sec_${crypto.randomUUID().slice(0, 12)}`;
  const workflow = sectionCatalog().get(workflowId);
  if (!workflow) throw new Error(workflowId);
  await runStub(runId).start({
    runId,
    workflowId,
    input: { text, fail: false },
    trigger: { kind: "programmatic" },
    lwir: await sectionLwir(workflow),
  });
  return runId;
}

async function trigger(runId: string, text: string, fail = false, id?: string) {
  return runStub(runId).trigger({ input: { text, fail }, trigger: { kind: "http", ...(id ? { id } : {}) } });
}

const events = (runId: string): Promise<RunEvent[]> => runStub(runId).events({ limit: 1000 });
const types = (list: RunEvent[], prefix = "Occurrence") => list.filter((e) => e.type.startsWith(prefix)).map((e) => e.type);

function expectDense(list: RunEvent[]): void {
  expect(list.map((e) => e.seq)).toEqual(list.map((_, i) => i + 1));
}

/** Three occurrences, the middle one failing: o1 (start), o2 (fails), o3. */
async function threeWithMiddleFailing(workflowId: string) {
  const tag = crypto.randomUUID().slice(0, 6);
  const runId = await startSection(workflowId, `one-${tag}`);
  expect((await settle(runId)).status).toBe("waiting");
  await trigger(runId, `two-${tag}`, true);
  const afterTwo = await settle(runId);
  const third = afterTwo.status === "waiting" ? await trigger(runId, `three-${tag}`).then(() => settle(runId)) : null;
  return { runId, tag, afterTwo, third };
}

describe("onTrigger sections", () => {
  it("under the default policy a failed occurrence ends the run with its cause; the rest of the log is the same as 'end'", async () => {
    for (const workflowId of ["section.default", "section.end"]) {
      const { runId, afterTwo, third } = await threeWithMiddleFailing(workflowId);
      expect(afterTwo.status).toBe("failed");
      expect(afterTwo.cause).toMatchObject({ code: "step_failed", message: expect.stringContaining("Occurrence o2 failed") });
      expect(third).toBeNull();
      const log = await events(runId);
      expectDense(log);
      expect(types(log)).toEqual(["OccurrenceStarted", "OccurrenceCompleted", "OccurrenceQueued", "OccurrenceStarted", "OccurrenceFailed"]);
      expect(log.find((e) => e.type === "OccurrenceFailed")?.payload).toMatchObject({ occurrenceId: "o2", rearmed: false });
      // Ended: a trigger now is refused, nothing appended.
      const refused = runStub(runId).trigger({ input: { text: "late", fail: false }, trigger: { kind: "http" } });
      await expect(refused).rejects.toMatchObject({ name: "RunEndedError", code: "run_ended" });
      expect((await events(runId)).length).toBe(log.length);
    }
  });

  it("under 'continue' a failed occurrence re-arms the section: the third runs, and the run waits again", async () => {
    const { runId, tag, afterTwo, third } = await threeWithMiddleFailing("section.continue");
    expect(afterTwo.status).toBe("waiting");
    expect(afterTwo.occurrences).toMatchObject({ total: 2, completed: 1, failed: 1, pending: 0 });
    expect(third?.status).toBe("waiting");
    expect(third?.occurrences?.latest.map((o) => [o.occurrenceId, o.status])).toEqual([
      ["o1", "completed"],
      ["o2", "failed"],
      ["o3", "completed"],
    ]);
    expect(third?.occurrences?.latest[2]?.output).toEqual({ echoed: `THREE-${tag}`.toUpperCase() });
    const log = await events(runId);
    expectDense(log);
    expect(log.find((e) => e.type === "OccurrenceFailed")?.payload).toMatchObject({ occurrenceId: "o2", rearmed: true });
    // Every step event carries its occurrence in its path.
    const paths = log
      .filter((e) => e.type === "StepSucceeded" || e.type === "StepFailed")
      .map((e) => (e.payload as { stepPath: string }).stepPath);
    expect(paths).toEqual(["o1/c1/echo", "o2/c1/echo", "o3/c1/echo"]);
    expect(echoCalls.get(`two-${tag}`)).toBe(1);
  });

  it("closes after maxOccurrences and completes with a summary", async () => {
    const runId = await startSection("section.three", "a");
    await settle(runId);
    await trigger(runId, "b", true);
    await trigger(runId, "c");
    const view = await settle(runId);
    expect(view.status).toBe("completed");
    expect(view.output).toEqual({ occurrences: 3, completed: 2, failed: 1, lastOutput: { echoed: "C" } });
  });

  it("a trigger id seen before returns the same occurrence and queues nothing", async () => {
    const runId = await startSection("section.continue", "x");
    await settle(runId);
    const first = await trigger(runId, "y", false, "key-1");
    const again = await trigger(runId, "y", false, "key-1");
    expect(again).toMatchObject({ occurrenceId: first.occurrenceId, created: false });
    await settle(runId);
    expect(types(await events(runId)).filter((t) => t === "OccurrenceQueued")).toHaveLength(1);
  });

  it("a cancel between occurrences ends the section under either policy; later triggers are refused", async () => {
    for (const workflowId of ["section.end", "section.continue"]) {
      const runId = await startSection(workflowId, "before-cancel");
      expect((await settle(runId)).status).toBe("waiting");
      expect((await runStub(runId).cancel("done for today")).status).toBe("cancelled");
      const refused = runStub(runId).trigger({ input: { text: "after", fail: false }, trigger: { kind: "http" } });
      await expect(refused).rejects.toMatchObject({ name: "RunEndedError", code: "run_ended" });
      // Once the cancel's row has landed (written after its answer), the ended run keeps no alarm.
      await runInDurableObject(rawRunStub(runId), async (instance) => {
        await (instance as unknown as { indexing: Promise<unknown> | null }).indexing;
      });
      expect(await runDurableObjectAlarm(rawRunStub(runId))).toBe(false);
      expect(types(await events(runId), "Run").at(-1)).toBe("RunCancelled");
    }
  });

  it.each(["section.end", "section.continue"])(
    "%s: a crash in the middle of an occurrence resumes it, each step once",
    async (workflowId) => {
      const tag = crypto.randomUUID().slice(0, 6);
      crashed = new Set();
      overrideWiring({
        models: offline,
        workflows: sectionCatalog(),
        // Abort the object just as o2's step has started (the tool call is in flight).
        beforeAppend: (batch, ctx) => {
          if (
            batch.some((e) => e.type === "StepScheduled" && (e.payload as { stepPath: string }).stepPath === "o2/c1/echo") &&
            !crashed.has(tag)
          ) {
            crashed.add(tag);
            ctx.abort("crash inside o2");
          }
        },
      });
      const runId = await startSection(workflowId, `p-${tag}`);
      await settle(runId);
      await trigger(runId, `q-${tag}`);
      const view = await settle(runId);
      expect(crashed.has(tag)).toBe(true);
      expect(view.status).toBe("waiting");
      expect(view.occurrences?.latest.map((o) => o.status)).toEqual(["completed", "completed"]);
      const log = await events(runId);
      expectDense(log);
      expect(types(log).filter((t) => t === "OccurrenceStarted")).toHaveLength(2);
      expect(log.filter((e) => e.type === "StepSucceeded")).toHaveLength(2);
      expect(echoCalls.get(`q-${tag}`)).toBe(1);
    },
  );

  it("a crash after the body's last step, resumed past occurrenceTimeoutMs, completes the occurrence (the log's times decide)", async () => {
    const tag = crypto.randomUUID().slice(0, 6);
    const clock = { offset: 0, now: () => Date.now() + clock.offset };
    const timed = sectionWorkflow("section.timed", "end", undefined, 60_000);
    overrideWiring({
      models: offline,
      workflows: catalogOf([timed]),
      clock,
      // o2's step succeeded well within its minute; the object dies before OccurrenceCompleted, and
      // comes back an hour later.
      afterAppend: (batch, ctx) => {
        if (
          batch.some((e) => e.type === "StepSucceeded" && (e.payload as { stepPath: string }).stepPath === "o2/c1/echo") &&
          !crashed.has(`t-${tag}`)
        ) {
          crashed.add(`t-${tag}`);
          clock.offset = 3_600_000;
          ctx.abort("crash after o2's last step");
        }
      },
    });
    const runId = `sec_${crypto.randomUUID().slice(0, 12)}`;
    await runStub(runId).start({
      runId,
      workflowId: "section.timed",
      input: { text: `u-${tag}`, fail: false },
      trigger: { kind: "programmatic" },
      lwir: await sectionLwir(timed),
    });
    await settle(runId);
    await trigger(runId, `v-${tag}`);
    const view = await settle(runId);
    expect(crashed.has(`t-${tag}`)).toBe(true);
    expect(view.status).toBe("waiting");
    expect(view.occurrences?.latest.map((o) => [o.occurrenceId, o.status])).toEqual([
      ["o1", "completed"],
      ["o2", "completed"],
    ]);
    expect(echoCalls.get(`v-${tag}`)).toBe(1);
    expectDense(await events(runId));
  });

  it.each([
    ["section.end", "failed"],
    ["section.continue", "waiting"],
  ])("%s: a crash right after a failed occurrence keeps the policy's outcome (%s)", async (workflowId, expected) => {
    const tag = crypto.randomUUID().slice(0, 6);
    overrideWiring({
      models: offline,
      workflows: sectionCatalog(),
      afterAppend: (batch, ctx) => {
        if (batch.some((e) => e.type === "OccurrenceFailed") && !crashed.has(`f-${tag}`)) {
          crashed.add(`f-${tag}`);
          ctx.abort("crash after a failed occurrence");
        }
      },
    });
    const runId = await startSection(workflowId, `r-${tag}`);
    await settle(runId);
    await trigger(runId, `s-${tag}`, true);
    const view = await settle(runId);
    expect(crashed.has(`f-${tag}`)).toBe(true);
    expect(view.status).toBe(expected);
    const log = await events(runId);
    expectDense(log);
    expect(types(log).filter((t) => t === "OccurrenceFailed")).toHaveLength(1);
    expect(echoCalls.get(`s-${tag}`)).toBe(1);
    if (expected === "waiting") {
      await trigger(runId, `t-${tag}`);
      expect((await settle(runId)).occurrences?.latest.map((o) => o.status)).toEqual(["completed", "failed", "completed"]);
    }
  });

  it("the policy is in the definition's snapshot: it changes the hash, and an unauthored policy is omitted", async () => {
    const { snapshotDefinition } = await import("../../src/identity/definition-snapshot.ts");
    const unset = await snapshotDefinition(sectionWorkflow("section.x").definition);
    const cont = await snapshotDefinition(sectionWorkflow("section.x", "continue").definition);
    const end = await snapshotDefinition(sectionWorkflow("section.x", "end").definition);
    expect(unset.snapshot.section).toEqual({ kind: "onTrigger" });
    expect(cont.snapshot.section).toEqual({ kind: "onTrigger", onBodyFailure: "continue" });
    expect(new Set([unset.definitionHash, cont.definitionHash, end.definitionHash]).size).toBe(3);
  });
});
