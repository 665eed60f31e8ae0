import { describe, expect, it } from "vitest";
import { definitionCapabilities } from "../../src/engine/definition-capabilities.ts";
import type { RegisteredWorkflow } from "../../src/engine/run-environment.ts";
import { summarizeTicketDefinition } from "../../src/examples/support-summarize-ticket.ts";
import { snapshotDefinition } from "../../src/identity/definition-snapshot.ts";
import { LEGACY_SCHEMA_NORMALIZER, SCHEMA_NORMALIZER } from "../../src/schema/normalize-schema.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";

// The engine snapshots a run's definition on every drive slice; it is code, so once per isolate
// (per workflow and schema normalizer) is enough — the same capabilities a fresh snapshot gives.

const seed = (): RegisteredWorkflow => ({ definition: defineWorkflow(summarizeTicketDefinition), tools: {} });

describe("definitionCapabilities", () => {
  it("computes a workflow's capabilities once per normalizer, equal to a fresh snapshot", async () => {
    const workflow = seed();
    const first = definitionCapabilities(workflow, SCHEMA_NORMALIZER);
    expect(definitionCapabilities(workflow, SCHEMA_NORMALIZER)).toBe(first);
    const fresh = await snapshotDefinition(workflow.definition, workflow.tools, workflow.modelOverrides, SCHEMA_NORMALIZER);
    expect((await first).definitionHash).toBe(fresh.definitionHash);
    expect((await first).snapshot).toEqual(fresh.snapshot);
    // A run keeps the normalizer it started with: the legacy one is its own entry, with its own hash.
    const legacy = definitionCapabilities(workflow, LEGACY_SCHEMA_NORMALIZER);
    expect(legacy).not.toBe(first);
    const freshLegacy = await snapshotDefinition(workflow.definition, workflow.tools, workflow.modelOverrides, LEGACY_SCHEMA_NORMALIZER);
    expect((await legacy).definitionHash).toBe(freshLegacy.definitionHash);
    // Another registration of the same code (a redeploy's catalog) is snapshotted on its own.
    expect(definitionCapabilities(seed(), SCHEMA_NORMALIZER)).not.toBe(first);
  });

  it("keeps no failure: a definition that does not snapshot fails again on the next call", async () => {
    const broken: RegisteredWorkflow = {
      definition: defineWorkflow({ ...summarizeTicketDefinition, id: "broken.tools", globalTools: ["missing_tool"] }),
      tools: {},
    };
    const first = definitionCapabilities(broken, SCHEMA_NORMALIZER);
    await expect(first).rejects.toMatchObject({ code: "workflow_missing_tool" });
    const second = definitionCapabilities(broken, SCHEMA_NORMALIZER);
    expect(second).not.toBe(first);
    await expect(second).rejects.toMatchObject({ code: "workflow_missing_tool" });
  });
});
