import { afterEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../src/adapters/models/env-model-resolver.ts";
import { summarizeTicket, summarizeTicketDefinition } from "../src/examples/support-summarize-ticket.ts";
import { runWorkflow } from "../src/run-workflow.ts";
import { defineWorkflow } from "../src/sdk/define-workflow.ts";
import { WorkflowNotRegisteredError } from "../src/sdk/errors/workflow-not-registered-error.ts";
import { overrideWiring } from "../src/wiring.ts";

afterEach(() => overrideWiring({}));

describe("runWorkflow in the Worker (default Cloudflare world: run object + D1, alarms firing on their own)", () => {
  it("runs the registered seed example to completion and replays the same run id without model calls", async () => {
    overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {} }) });
    const input = { ticketId: "T-7", transcript: "Password reset emails never arrive." };
    const first = await runWorkflow(summarizeTicket, input, { runId: "run_cf_world" });
    expect(first.status).toBe("completed");
    expect(first.versionId).toMatch(/^wfver_/);
    expect(first.output).toMatchObject({ severity: expect.stringMatching(/^(low|medium|high)$/) });
    let calls = 0;
    overrideWiring({
      models: {
        resolve: () => {
          calls += 1;
          throw new Error("no model may be resolved on replay");
        },
      },
    });
    const again = await runWorkflow(summarizeTicket, input, { runId: "run_cf_world" });
    expect(again).toEqual(first);
    expect(calls).toBe(0);
  });

  it("refuses a workflow the Worker does not register, with a named error", async () => {
    const stranger = defineWorkflow({ ...summarizeTicketDefinition, id: "not.registered" });
    await expect(runWorkflow(stranger, {})).rejects.toBeInstanceOf(WorkflowNotRegisteredError);
  });
});
