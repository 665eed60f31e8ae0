import { openai } from "@ai-sdk/openai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { snapshotDefinition } from "../../src/identity/definition-snapshot.ts";
import { defineWorkflow, type WorkflowDefinitionInput } from "../../src/sdk/define-workflow.ts";
import { WorkflowDefinitionError } from "../../src/sdk/errors/workflow-definition-error.ts";
import { model } from "../../src/sdk/model.ts";

const base: WorkflowDefinitionInput<unknown, unknown> = {
  id: "test.signals",
  description: "Declares signals.",
  input: z.object({ orderId: z.string() }),
  output: z.object({ ok: z.boolean() }),
  models: [model(openai("gpt-4o-mini"), { description: "Any." })],
  planner: { model: openai("gpt-5"), system: "Plan." },
};

function codesOf(signals: unknown): string[] {
  try {
    defineWorkflow({ ...base, signals } as WorkflowDefinitionInput<unknown, unknown>);
    return [];
  } catch (error) {
    if (!(error instanceof WorkflowDefinitionError)) throw error;
    return error.findings.map((f) => f.code);
  }
}

describe("defineWorkflow({ signals })", () => {
  it("refuses bad names, missing schemas and descriptions with stable codes", () => {
    expect(codesOf({ "Manager Decision": { schema: z.object({}), description: "x" } })).toEqual(["definition.invalid_signal_name"]);
    expect(codesOf({ "manager.decision": { description: "x" } })).toEqual(["definition.missing_signal_schema"]);
    expect(codesOf({ "manager.decision": { schema: z.object({}), description: " " } })).toEqual(["definition.missing_signal_description"]);
    expect(codesOf(["manager.decision"])).toEqual(["definition.invalid_signals"]);
    expect(codesOf({ "manager.decision": { schema: z.object({}), description: "ok" } })).toEqual([]);
  });

  it("puts each signal's normalized schema in the snapshot, sorted, and in the definition hash; none declared keeps the old hash", async () => {
    const plain = await snapshotDefinition(defineWorkflow(base));
    expect(plain.snapshot.signals).toBeUndefined();
    const empty = await snapshotDefinition(defineWorkflow({ ...base, signals: {} }));
    expect(empty.definitionHash).toBe(plain.definitionHash);
    const decision = { schema: z.object({ approved: z.boolean() }), description: "The call" };
    const one = await snapshotDefinition(
      defineWorkflow({ ...base, signals: { "z.last": { schema: { type: "object" }, description: "Last" }, "manager.decision": decision } }),
    );
    expect(one.snapshot.signals?.map((s) => s.name)).toEqual(["manager.decision", "z.last"]);
    expect(one.snapshot.signals?.[0]?.schema).toMatchObject({ type: "object", properties: { approved: { type: "boolean" } } });
    expect(one.definitionHash).not.toBe(plain.definitionHash);
    const changed = await snapshotDefinition(
      defineWorkflow({
        ...base,
        signals: {
          "z.last": { schema: { type: "object" }, description: "Last" },
          "manager.decision": { ...decision, schema: z.object({ approved: z.boolean(), note: z.string() }) },
        },
      }),
    );
    expect(changed.definitionHash).not.toBe(one.definitionHash);
  });
});
