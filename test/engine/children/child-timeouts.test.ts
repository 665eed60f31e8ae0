import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../../src/adapters/models/env-model-resolver.ts";
import { overrideWiring } from "../../../src/wiring.ts";
import { call, runEvents } from "../../api/support/api-call.ts";
import { runStub } from "../../support/drive.ts";
import { callLwir, familyCatalog, parentOf } from "./support/family.ts";

type View = Record<string, unknown> & {
  runId: string;
  status: string;
  waitReason?: string;
  children?: { runId: string; status: string; attempt: number }[];
  cause?: { code: string; message: string; details?: { code?: string } };
};

const offline = new EnvModelResolver({ mode: "offline", secrets: {} });
/** A parent of the approval child (which waits for a person forever) that may live 8 s. */
const boundedParent = parentOf("family.bounded", "family.approve", 8_000);
beforeEach(() => overrideWiring({ models: offline, workflows: familyCatalog(undefined, [boundedParent]) }));
afterEach(() => overrideWiring({}));

const view = async (runId: string): Promise<View> => (await call("GET", `/v1/runs/${runId}`)).json.run as View;

/** Waits on the run object's own waitForEnd (no sleeping here) until `check` holds for the run's view. */
async function until(runId: string, check: (v: View) => boolean): Promise<View> {
  for (let i = 0; i < 300; i++) {
    const v = await view(runId);
    if (check(v)) return v;
    await runStub(runId, "dev").waitForEnd(200);
  }
  throw new Error(`run ${runId} never got there: ${JSON.stringify(await view(runId))}`);
}

describe("a workflow.run step's deadlines reach its child", () => {
  it("a step that passes its timeoutMs while its child runs fails with step_timeout and cancels the child", async () => {
    const lwir = await callLwir(familyCatalog(), "family.waiter");
    const steps = lwir.steps.map((s) => ({ ...s, timeoutMs: 3_000 }));
    const started = await call("POST", "/v1/lwir/runs", { body: { lwir: { ...lwir, steps }, input: { text: "too slow" } } });
    expect(started.status).toBe(202);
    const runId = (started.json.run as View).runId;
    // The run's alarm is the step's deadline: nothing else wakes it, and the child never ends by itself.
    const parent = await until(runId, (v) => v.status === "failed");
    expect(parent.cause).toMatchObject({ code: "step_failed", details: { code: "step_timeout" } });
    const childId = parent.children?.[0]?.runId as string;
    const child = await until(childId, (v) => v.status === "cancelled");
    expect(child.status).toBe("cancelled");
    expect(JSON.stringify((await runEvents(childId)).at(-1))).toContain(`its parent run ${runId} gave up on step c1/call`);
  }, 120_000);

  it("a parent waiting for a child wakes at its own run timeout, fails with run_timeout and cancels the child", async () => {
    const started = await call("POST", "/v1/workflows/family.bounded/runs", { body: { input: { text: "run deadline" } } });
    expect(started.status).toBe(202);
    const runId = (started.json.run as View).runId;
    const waiting = await until(runId, (v) => v.waitReason === "child");
    // The wait has no deadline of its own, yet the run object's alarm is armed for the run's timeout.
    expect(waiting.status).toBe("waiting");
    const parent = await until(runId, (v) => v.status === "failed");
    expect(parent.cause?.code).toBe("run_timeout");
    const childId = parent.children?.[0]?.runId as string;
    expect((await until(childId, (v) => v.status === "cancelled")).status).toBe("cancelled");
    expect(JSON.stringify((await runEvents(childId)).at(-1))).toContain(`its parent run ${runId} ended: `);
  }, 120_000);
});
