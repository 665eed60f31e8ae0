import { openai } from "@ai-sdk/openai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { flowGatesOf } from "../../../src/engine/flow/flow-gates.ts";
import { foldFrom } from "../../../src/engine/run-state.ts";
import { snapshotDefinition } from "../../../src/identity/definition-snapshot.ts";
import type { NewRunEvent } from "../../../src/ports/run-events.ts";
import { defineWorkflow, type WorkflowDefinitionInput } from "../../../src/sdk/define-workflow.ts";
import { WorkflowDefinitionError } from "../../../src/sdk/errors/workflow-definition-error.ts";
import { model } from "../../../src/sdk/model.ts";
import { logOf } from "../../inspector/events.ts";

const base = (): WorkflowDefinitionInput<unknown, unknown> => ({
  id: "flow.unit",
  description: "Draft a reply.",
  input: z.object({ customerId: z.string(), region: z.string().optional() }),
  output: z.object({ reply: z.string() }),
  models: [model(openai("gpt-4o-mini"), { description: "Drafts.", limits: { requestsPerMinute: 120 } })],
  planner: { model: openai("gpt-5"), system: "Plan it." },
});

function findingsOf(extra: Record<string, unknown>): { code: string; path: string }[] {
  try {
    defineWorkflow({ ...base(), ...extra } as WorkflowDefinitionInput<unknown, unknown>);
  } catch (error) {
    if (!(error instanceof WorkflowDefinitionError)) throw error;
    return error.findings.map((f) => ({ code: f.code, path: f.path }));
  }
  return [];
}

describe("flow control in the definition", () => {
  it("keeps concurrency (as a list) and throttle, and checks their shapes", () => {
    const def = defineWorkflow({
      ...base(),
      concurrency: { key: "{{ input.customerId }}", limit: 2 },
      throttle: { limit: 5, periodMs: 1_000 },
    });
    expect(def.concurrency).toEqual([{ key: "{{ input.customerId }}", limit: 2 }]);
    expect(def.throttle).toEqual({ limit: 5, periodMs: 1_000 });
    expect(findingsOf({ concurrency: { limit: 0 } })).toEqual([{ code: "definition.invalid_concurrency", path: "$.concurrency.limit" }]);
    expect(findingsOf({ concurrency: [{ limit: 1 }, { limit: 2 }, { limit: 3 }] })).toContainEqual({
      code: "definition.invalid_concurrency",
      path: "$.concurrency",
    });
    expect(findingsOf({ concurrency: { limit: 2, key: "customerId" } })).toEqual([
      { code: "definition.invalid_concurrency", path: "$.concurrency.key" },
    ]);
    expect(findingsOf({ throttle: { limit: 5, periodMs: 5 } })).toEqual([
      { code: "definition.invalid_throttle", path: "$.throttle.periodMs" },
    ]);
  });

  it("is not part of the definition hash (a limit is a trigger concern, like a schedule)", async () => {
    const plain = await snapshotDefinition(defineWorkflow(base()), {});
    const limited = await snapshotDefinition(
      defineWorkflow({
        ...base(),
        models: [model(openai("gpt-4o-mini"), { description: "Drafts.", limits: { requestsPerMinute: 10, concurrent: 1 } })],
        concurrency: [{ limit: 3, key: "{{ input.customerId }}" }, { limit: 50 }],
        throttle: { limit: 1, periodMs: 60_000 },
      }),
      {},
    );
    expect(limited.definitionHash).toBe(plain.definitionHash);
  });

  it("renders the keys over the input, in gate order; no key is one queue for the workflow", () => {
    const def = defineWorkflow({
      ...base(),
      concurrency: [{ key: "{{ input.customerId }}-{{ input.region }}", limit: 2 }, { limit: 10 }],
      throttle: { key: "{{ input.customerId }}", limit: 5, periodMs: 1_000 },
    });
    expect(flowGatesOf(def, { customerId: "c1", region: "eu" })).toEqual([
      { kind: "concurrency", index: 0, key: "c1-eu", limit: 2 },
      { kind: "concurrency", index: 1, key: "*", limit: 10 },
      { kind: "throttle", index: 0, key: "c1", limit: 5, periodMs: 1_000 },
    ]);
    expect(flowGatesOf(defineWorkflow(base()), { customerId: "c1" })).toEqual([]);
  });

  it("refuses a key that reads a step or does not parse (422 workflow_definition_invalid)", () => {
    const stepKey = defineWorkflow({ ...base(), concurrency: { key: "{{ steps.a.output }}", limit: 2 } });
    expect(() => flowGatesOf(stepKey, { customerId: "c1" })).toThrow(WorkflowDefinitionError);
    const broken = defineWorkflow({ ...base(), concurrency: { key: "{{ input. }}", limit: 2 } });
    expect(() => flowGatesOf(broken, { customerId: "c1" })).toThrow(/invalid/);
  });
});

describe("the fold of a queued run", () => {
  const requested: NewRunEvent = {
    type: "RunRequested",
    payload: {
      workflowId: "flow.unit",
      input: { customerId: "c1" },
      trigger: { kind: "http" },
      tenant: "t",
      flow: [{ kind: "concurrency", index: 0, key: "c1", limit: 2 }],
    },
  };

  it("is waiting for `concurrency` from FlowQueued to FlowAdmitted, then pending again, then compiles", () => {
    const queued = foldFrom(
      null,
      logOf([requested, { type: "FlowQueued", payload: { kind: "concurrency", gate: 0, key: "c1", position: 3 } }]),
    );
    expect(queued.state).toMatchObject({ status: "waiting", waitReason: "concurrency", flow: { queued: { key: "c1", position: 3 } } });
    const admitted = foldFrom(
      null,
      logOf([
        requested,
        { type: "FlowQueued", payload: { kind: "concurrency", gate: 0, key: "c1", position: 3 } },
        { type: "FlowAdmitted", payload: { kind: "concurrency", gate: 0, key: "c1", admittedAt: 5 } },
      ]),
    );
    expect(admitted.state).toMatchObject({ status: "pending", waitReason: null, flow: { queued: null, admitted: ["concurrency:0"] } });
  });

  it("leaves a run without flow control as it was (no `flow` in its state)", () => {
    const { flow: _none, ...plain } = (requested as NewRunEvent<"RunRequested">).payload;
    const state = foldFrom(null, logOf([{ type: "RunRequested", payload: plain }])).state;
    expect(state.flow).toBeUndefined();
    expect(state.status).toBe("pending");
  });
});
