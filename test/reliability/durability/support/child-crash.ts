import { runDurableObjectAlarm } from "cloudflare:test";
import { EnvModelResolver } from "../../../../src/adapters/models/env-model-resolver.ts";
import type { NewRunEvent, RunEvent } from "../../../../src/ports/run-events.ts";
import type { RunView } from "../../../../src/ports/run-handle.ts";
import { isEndedStatus } from "../../../../src/ports/run-status.ts";
import { overrideWiring } from "../../../../src/wiring.ts";
import { call } from "../../../api/support/api-call.ts";
import { callLwir, familyCatalog } from "../../../engine/children/support/family.ts";
import { rawRunStub, runStub } from "../../../support/drive.ts";

/**
 * A parent that runs `family.echo` as a child (one workflow.run step, given LWIR), with a crash
 * hook on every run object's appends, driven by the objects' own alarms (run here, never slept
 * for) until the parent ends. Returns both runs' views and logs.
 */
export type ChildCrashHooks = {
  readonly beforeAppend?: (events: readonly NewRunEvent[], ctx: DurableObjectState) => void;
  readonly afterAppend?: (events: readonly RunEvent[], ctx: DurableObjectState) => void;
};

export type ChildCrashOutcome = {
  readonly parent: RunView;
  readonly parentEvents: RunEvent[];
  readonly child: RunView;
  readonly childEvents: RunEvent[];
};

function isReset(error: unknown): boolean {
  return /reset|abort/i.test(String((error as Error)?.message)) || (error as { durableObjectReset?: boolean })?.durableObjectReset === true;
}

/** Runs an object's alarm if it has one; a reset (the crash) is taken up again with a fresh stub. */
async function alarm(runId: string): Promise<boolean> {
  try {
    return await runDurableObjectAlarm(rawRunStub(runId, "dev"));
  } catch (error) {
    if (!isReset(error)) throw error;
    return true;
  }
}

/** A call to a run object, again with a fresh stub when the object was reset under it (the crash). */
async function fresh<T>(attempt: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isReset(error) || i >= 5) throw error;
    }
  }
}

export async function runChildCrash(text: string, hooks: ChildCrashHooks): Promise<ChildCrashOutcome> {
  const catalog = familyCatalog();
  overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {} }), workflows: catalog, ...hooks });
  const lwir = await callLwir(catalog, "family.parent");
  const started = await call("POST", "/v1/lwir/runs", { body: { lwir, input: { text } } });
  const runId = (started.json.run as { runId: string }).runId;
  let parent = await fresh(() => runStub(runId, "dev").status());
  for (let i = 0; i < 200 && !isEndedStatus(parent.status); i++) {
    const childId = parent.children?.[0]?.runId;
    // Each object's alarm in turn: the parent's (its safety alarm after a crash), then the child's
    // (its run, or the retry of a notification the parent missed).
    const ran = (await alarm(runId)) || (childId ? await alarm(childId) : false);
    parent = await fresh(() => runStub(runId, "dev").waitForEnd(ran ? 10 : 200));
  }
  const childId = parent.children?.[0]?.runId as string;
  return {
    parent,
    parentEvents: await runStub(runId, "dev").events({ limit: 10_000 }),
    child: await runStub(childId, "dev").status(),
    childEvents: await runStub(childId, "dev").events({ limit: 10_000 }),
  };
}
