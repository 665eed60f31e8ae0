import { openai } from "@ai-sdk/openai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { dailyDigest } from "../../src/examples/ops-daily-digest.ts";
import { snapshotDefinition } from "../../src/identity/definition-snapshot.ts";
import { defineWorkflow, type WorkflowDefinitionInput } from "../../src/sdk/define-workflow.ts";
import { LittleError } from "../../src/sdk/errors/little-error.ts";
import { ScheduleInvalidError } from "../../src/sdk/errors/schedule-invalid-error.ts";
import { WorkflowDefinitionError } from "../../src/sdk/errors/workflow-definition-error.ts";
import { model } from "../../src/sdk/model.ts";

const base: WorkflowDefinitionInput = {
  id: "ops.report",
  description: "Write a report.",
  input: z.object({ team: z.string(), days: z.number().int().default(1) }),
  output: z.object({ text: z.string() }),
  models: [model(openai("gpt-4o-mini"), { description: "Fast." })],
  planner: { model: openai("gpt-5"), system: "You design reports." },
};

function refusal(schedule: unknown, input: unknown = base.input): ScheduleInvalidError {
  try {
    defineWorkflow({ ...base, input, schedule } as WorkflowDefinitionInput);
  } catch (error) {
    if (error instanceof ScheduleInvalidError) return error;
    throw error;
  }
  throw new Error("defineWorkflow accepted the schedule");
}

describe("defineWorkflow: schedule", () => {
  it("takes a cron string, an entry or a list, and keeps each entry's cron as written, tenant and input (default {})", () => {
    const open = z.object({}).passthrough();
    expect(defineWorkflow({ ...base, input: open, schedule: " 0 8 * * MON-FRI " }).schedule).toEqual([
      { cron: "0 8 * * MON-FRI", input: {} },
    ]);
    const listed = defineWorkflow({
      ...base,
      schedule: [
        { cron: "0 8 * * MON-FRI", tenant: "acme", input: { team: "support" } },
        { cron: "0 18 * * friL", input: { team: "billing", days: 7 } },
      ],
    });
    expect(listed.schedule).toEqual([
      { cron: "0 8 * * MON-FRI", tenant: "acme", input: { team: "support" } },
      { cron: "0 18 * * friL", input: { team: "billing", days: 7 } },
    ]);
  });

  it("a cron that does not parse is refused at definition time with schedule_invalid, naming the field", () => {
    const error = refusal({ cron: "0 25 * * *", input: { team: "a" } });
    expect(error.code).toBe("schedule_invalid");
    expect(LittleError.is(error)).toBe(true);
    expect(error.findings).toEqual([
      expect.objectContaining({ code: "schedule.invalid_cron", path: "$.schedule.cron", message: expect.stringContaining("hour") }),
    ]);
    expect(refusal("every morning").findings[0]).toMatchObject({ code: "schedule.invalid_cron", path: "$.schedule" });
  });

  it("refuses an input the input schema refuses, a left-out input the schema needs, non-JSON input, a bad tenant, a cron twice", () => {
    const findings = refusal([
      { cron: "0 8 * * *", input: { team: 5 } },
      { cron: "0 9 * * *" },
      { cron: "0 10 * * *", input: { team: "x", at: new Date(0) } },
      { cron: "0 11 * * *", tenant: "Not A Tenant", input: { team: "x" } },
      { cron: "0  8 * * *", input: { team: "y" } },
    ]).findings;
    expect(findings.map((f) => [f.path, f.code])).toEqual([
      ["$.schedule[0].input", "schedule.invalid_input"],
      ["$.schedule[1].input", "schedule.invalid_input"],
      ["$.schedule[2].input", "schedule.invalid_input"],
      ["$.schedule[3].tenant", "schedule.invalid_tenant"],
      ["$.schedule[4].cron", "schedule.duplicate_cron"],
    ]);
    expect(findings[0]?.message).toContain("team");
    expect(findings[1]?.message).toContain("left out");
    expect(findings[2]?.message).toContain("JSON");
  });

  it("an empty list or a malformed entry is refused", () => {
    expect(refusal([]).findings[0]?.code).toBe("schedule.empty");
    expect(refusal([42]).findings[0]?.code).toBe("schedule.invalid_entry");
  });

  it("a JSON Schema input is not checked here (the start checks it at each tick)", () => {
    const jsonSchema = { type: "object", properties: { team: { type: "string" } }, required: ["team"] };
    expect(defineWorkflow({ ...base, input: jsonSchema, schedule: "0 8 * * *" }).schedule).toEqual([{ cron: "0 8 * * *", input: {} }]);
  });

  it("other definition problems come first, as workflow_definition_invalid", () => {
    expect(() => defineWorkflow({ ...base, description: "", schedule: "nonsense" })).toThrow(WorkflowDefinitionError);
  });

  it("the schedule is no part of the definition hash: adding, changing or removing one keeps it", async () => {
    const without = await snapshotDefinition(defineWorkflow(base));
    const scheduled = await snapshotDefinition(defineWorkflow({ ...base, schedule: { cron: "0 8 * * *", input: { team: "a" } } }));
    const other = await snapshotDefinition(defineWorkflow({ ...base, schedule: { cron: "0 9 * * *", input: { team: "b" } } }));
    expect(scheduled.definitionHash).toBe(without.definitionHash);
    expect(other.definitionHash).toBe(without.definitionHash);
    expect(JSON.stringify(scheduled.snapshot)).not.toContain("schedule");
  });

  it("the shipped scheduled example: weekdays at 08:00 UTC, the cron wrangler.toml lists", () => {
    expect(dailyDigest.schedule).toEqual([{ cron: "0 8 * * MON-FRI", input: { team: "support", focus: "tickets opened overnight" } }]);
  });
});
