import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../../src/adapters/models/env-model-resolver.ts";
import { catalogOf } from "../../../src/engine/run-environment.ts";
import { WorkflowCallCycleError } from "../../../src/sdk/errors/workflow-call-cycle-error.ts";
import { WorkflowCalleeMissingError } from "../../../src/sdk/errors/workflow-callee-missing-error.ts";
import { overrideWiring } from "../../../src/wiring.ts";
import { call, call as call2, runEvents } from "../../api/support/api-call.ts";
import { runStub } from "../../support/drive.ts";
import { approvalChild, callLwir, echoChild, failOnce, familyCatalog, parentOf } from "./support/family.ts";

type View = Record<string, unknown> & {
  runId: string;
  status: string;
  waitReason?: string;
  children?: { runId: string; status: string; stepPath: string; attempt: number; workflowId: string; cause?: { code: string } }[];
  parent?: { runId: string; stepPath: string };
  cause?: { code: string; message: string; details?: { code?: string } };
};

const offline = new EnvModelResolver({ mode: "offline", secrets: {} });
beforeEach(() => overrideWiring({ models: offline, workflows: familyCatalog() }));
afterEach(() => overrideWiring({}));

const view = async (runId: string): Promise<View> => (await call("GET", `/v1/runs/${runId}`)).json.run as View;

/** Waits (by the run object's own waitForEnd, no sleeping here) until `check` holds for the run's view. */
async function until(runId: string, check: (v: View) => boolean): Promise<View> {
  for (let i = 0; i < 100; i++) {
    const v = await view(runId);
    if (check(v)) return v;
    await runStub(runId, "dev").waitForEnd(100);
  }
  throw new Error(`run ${runId} never got there: ${JSON.stringify(await view(runId))}`);
}

describe("workflow.run: a child run through the start service", () => {
  it("runs the callee as a real child run, answers the step with its output, and links the two", async () => {
    const started = await call("POST", "/v1/workflows/family.parent/runs?wait=30", { body: { input: { text: "hello child" } } });
    expect(started.status).toBeLessThan(300);
    const parent = started.json.run as View;
    expect(parent).toMatchObject({ status: "completed", output: { echoed: "hello child" } });
    const [child] = parent.children ?? [];
    expect(child).toMatchObject({ workflowId: "family.echo", status: "completed", attempt: 1 });
    expect(child?.runId).toMatch(/^run_child_[0-9a-f]{24}$/);
    // The child is a run of its own: its view, its planner session, its index row, the parent's tenant.
    const childView = await view(child?.runId as string);
    // Read with the parent tenant's token: the child is that tenant's run.
    expect(childView).toMatchObject({ status: "completed", parent: { runId: parent.runId, stepPath: child?.stepPath } });
    const childEvents = await runEvents(child?.runId as string);
    expect(childEvents.some((e) => e.type === "harness.session.started")).toBe(true);
    const listed = (await call("GET", "/v1/runs?workflow=family.echo&limit=200")).json.runs as { runId: string }[];
    expect(listed.some((r) => r.runId === child?.runId)).toBe(true);
    // The parent's log records the child before it started, then its end.
    const types = (await runEvents(parent.runId)).map((e) => e.type);
    expect(types.indexOf("ChildRunStarted")).toBeGreaterThan(-1);
    expect(types.indexOf("ChildRunEnded")).toBeGreaterThan(types.indexOf("ChildRunStarted"));
    // A caller may not mint a child's id.
    const minted = await call("POST", "/v1/workflows/family.echo/runs", {
      body: { input: { text: "x" }, runId: "run_child_0123456789abcdef01234567" },
    });
    expect(minted.json.error?.code).toBe("run_id_reserved");
  });

  it("a child that completes while its parent waits idle ends the parent's step in the parent's own append", async () => {
    const started = await call("POST", "/v1/workflows/family.waiter/runs", { body: { input: { text: "end me at once" } } });
    const runId = (started.json.run as View).runId;
    const waiting = await until(runId, (v) => v.waitReason === "child" && (v.children?.length ?? 0) === 1);
    const childId = waiting.children?.[0]?.runId as string;
    const asked = await until(childId, (v) => v.waitReason === "approval");
    // The parent's slice has ended (its row says child): nothing drives it when the child tells it.
    const rows = (await call("GET", "/v1/runs?waitReason=child&limit=200")).json.runs as { runId: string }[];
    expect(rows.some((r) => r.runId === runId)).toBe(true);
    const approval = (asked.approvals as { approvalId: string; argsHash: string }[])[0];
    await call("POST", `/v1/runs/${childId}/approvals/${approval?.approvalId}`, {
      body: { decision: "approve", argsHash: approval?.argsHash },
    });
    const done = await until(runId, (v) => v.status === "completed");
    expect(done.output).toEqual({ echoed: "end me at once" });
    const events = (await runEvents(runId)) as { type: string; at: number; payload: Record<string, unknown> }[];
    const ended = events.findIndex((e) => e.type === "ChildRunEnded");
    const [message, step] = [events[ended], events[ended + 1]];
    expect(step).toMatchObject({ type: "StepSucceeded", payload: { stepPath: message?.payload.stepPath, attempt: 1 } });
    expect(step?.at).toBe(message?.at);
    const stepPath = message?.payload.stepPath;
    expect(events.filter((e) => e.type === "StepSucceeded" && e.payload.stepPath === stepPath)).toHaveLength(1);
  });

  it("waits as waitReason child, listed by ?waitReason=child; cancelling the parent cancels the child", async () => {
    const started = await call("POST", "/v1/workflows/family.waiter/runs", { body: { input: { text: "wait for me" } } });
    const runId = (started.json.run as View).runId;
    const waiting = await until(runId, (v) => v.waitReason === "child" && (v.children?.length ?? 0) === 1);
    expect(waiting).toMatchObject({ status: "waiting", waitReason: "child" });
    expect(waiting.waitingUntil).toBeUndefined();
    const childId = waiting.children?.[0]?.runId as string;
    await until(childId, (v) => v.waitReason === "approval");
    const rows = (await call("GET", "/v1/runs?waitReason=child&limit=200")).json.runs as { runId: string; waitReason: string }[];
    expect(rows.find((r) => r.runId === runId)).toMatchObject({ waitReason: "child" });
    const cancelled = await call("POST", `/v1/runs/${runId}/cancel`, { body: { reason: "not needed" } });
    expect(cancelled.status).toBe(200);
    const child = await view(childId);
    expect(child.status).toBe("cancelled");
    expect(JSON.stringify((await runEvents(childId)).at(-1))).toContain(`its parent run ${runId} ended: `);
  });

  it("a failed child fails the step with the child's cause; without retry the parent fails", async () => {
    failOnce.add("fails always once");
    const catalog = familyCatalog();
    const lwir = await callLwir(catalog, "family.parent");
    const started = await call("POST", "/v1/lwir/runs?wait=30", { body: { lwir, input: { text: "fails always once" } } });
    const parent = started.json.run as View;
    expect(parent.status).toBe("failed");
    expect(parent.cause).toMatchObject({ code: "step_failed", details: { code: "step_failed" } });
    expect(parent.cause?.message).toContain('echo refused "fails always once" once');
    expect(parent.children?.[0]).toMatchObject({ status: "failed", cause: { code: "step_failed" } });
  });

  it("the step's retry starts a fresh child (the next attempt's id), which succeeds", async () => {
    failOnce.add("second time lucky");
    const catalog = familyCatalog();
    const lwir = await callLwir(catalog, "family.parent", { maxAttempts: 2, backoffMs: 0 });
    const started = await call("POST", "/v1/lwir/runs?wait=30", { body: { lwir, input: { text: "second time lucky" } } });
    const parent = started.json.run as View;
    expect(parent).toMatchObject({ status: "completed", output: { echoed: "second time lucky" } });
    const [first, second] = parent.children ?? [];
    expect(first).toMatchObject({ attempt: 1, status: "failed" });
    expect(second).toMatchObject({ attempt: 2, status: "completed" });
    expect(first?.runId).not.toBe(second?.runId);
  });

  it("a callee whose definition changed under a waiting caller fails the caller closed with capability_drift", async () => {
    const started = await call("POST", "/v1/workflows/family.waiter/runs", { body: { input: { text: "drift" } } });
    const runId = (started.json.run as View).runId;
    const waiting = await until(runId, (v) => v.waitReason === "child");
    const childId = waiting.children?.[0]?.runId as string;
    const asked = await until(childId, (v) => v.waitReason === "approval");
    const approval = (asked.approvals as { approvalId: string; argsHash: string }[])[0];
    // A deploy changes the callee: every caller's definition hash changes with it.
    const changed = { ...approvalChild, description: "Echo the text after a person approves it (changed)." };
    overrideWiring({ models: offline, workflows: catalogWith(changed) });
    await call("POST", `/v1/runs/${childId}/approvals/${approval?.approvalId}`, {
      body: { decision: "approve", argsHash: approval?.argsHash },
    });
    const parent = await until(runId, (v) => v.status === "failed");
    expect(parent.cause?.code).toBe("capability_drift");
  });
});

describe("a parent that fails for another reason cancels its children still running", () => {
  it("a sibling workflow.run fails the run: the child waiting for an approval is cancelled", async () => {
    failOnce.add("sibling fails");
    const both = { ...parentOf("family.both", "family.echo"), workflows: ["family.approve", "family.echo"] };
    const catalog = familyCatalog(echoChild(), [both]);
    overrideWiring({ models: offline, workflows: catalog });
    const lwir = await callLwir(catalog, "family.both");
    const call = (id: string, workflow: string, needs: string[] = []) => ({
      id,
      uses: "workflow.run",
      needs,
      with: { workflow, input: { text: "{{ input.text }}" } },
      output: { mode: "json" },
    });
    const steps = [
      call("wait", "family.approve"),
      call("fail", "family.echo"),
      { ...call("after", "family.echo", ["wait", "fail"]), output: (lwir.steps[0] as { output: unknown }).output },
    ];
    const started = await call2("POST", "/v1/lwir/runs", { body: { lwir: { ...lwir, steps }, input: { text: "sibling fails" } } });
    const runId = (started.json.run as View).runId;
    const parent = await until(runId, (v) => v.status === "failed");
    const waiting = parent.children?.find((c) => c.workflowId === "family.approve");
    expect(waiting).toBeDefined();
    const child = await until(waiting?.runId as string, (v) => v.status === "cancelled");
    expect(child.status).toBe("cancelled");
  });
});

function catalogWith(approve: typeof approvalChild) {
  return catalogOf([
    { definition: echoChild(), tools: {} },
    { definition: approve, tools: {} },
    { definition: parentOf("family.parent", "family.echo"), tools: {} },
    { definition: parentOf("family.waiter", "family.approve"), tools: {} },
  ]);
}

describe("the call graph, checked when the registry is built", () => {
  it("refuses a cycle (workflow_call_cycle) and an unregistered callee (workflow_callee_missing)", () => {
    const a = parentOf("cycle.a", "cycle.b");
    const b = parentOf("cycle.b", "cycle.c");
    const c = parentOf("cycle.c", "cycle.a");
    const cycle = (() => {
      try {
        catalogOf([a, b, c].map((definition) => ({ definition, tools: {} })));
      } catch (error) {
        return error;
      }
    })();
    expect(cycle).toBeInstanceOf(WorkflowCallCycleError);
    expect(cycle).toMatchObject({ code: "workflow_call_cycle", cycle: ["cycle.a", "cycle.b", "cycle.c", "cycle.a"] });
    expect(() => catalogOf([{ definition: a, tools: {} }])).toThrow(WorkflowCalleeMissingError);
    expect(() => parentOf("self.call", "self.call")).toThrow(/may not call itself/);
  });

  it("nesting deeper than 8 fails the deepest step with workflow_depth_exceeded, and every caller with it", async () => {
    const chain = Array.from({ length: 10 }, (_, i) =>
      i === 9 ? { ...echoChild(), id: "depth.9" } : parentOf(`depth.${i}`, `depth.${i + 1}`),
    );
    overrideWiring({ models: offline, workflows: catalogOf(chain.map((definition) => ({ definition, tools: {} }))) });
    const started = await call("POST", "/v1/workflows/depth.0/runs?wait=60", { body: { input: { text: "deep" } } });
    let run = started.json.run as View;
    run = await until(run.runId, (v) => v.status === "failed");
    expect(run.cause?.code).toBe("step_failed");
    // Follow the chain down to the run whose own step refused to go deeper.
    let depth = 0;
    while (run.children?.[0]) {
      run = await view(run.children[0].runId);
      depth += 1;
    }
    expect(depth).toBe(8);
    expect(run.cause).toMatchObject({ code: "step_failed", details: { code: "workflow_depth_exceeded" } });
  }, 120_000);
});
