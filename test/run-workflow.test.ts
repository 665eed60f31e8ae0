import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../src/adapters/models/env-model-resolver.ts";
import { summarizeTicket, summarizeTicketDefinition } from "../src/examples/support-summarize-ticket.ts";
import { runWorkflow } from "../src/run-workflow.ts";
import { defineWorkflow } from "../src/sdk/define-workflow.ts";
import { StartRefusedError } from "../src/sdk/errors/start-refused-error.ts";
import { WorkflowNotRegisteredError } from "../src/sdk/errors/workflow-not-registered-error.ts";
import { overrideWiring } from "../src/wiring.ts";
import { runStub } from "./support/drive.ts";

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

  it("goes through the start service: a bad input is refused before anything is stored, a run id reused with another input conflicts", async () => {
    overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {} }) });
    await expect(runWorkflow(summarizeTicket, { ticketId: 7 }, { runId: "run_cf_bad_input" })).rejects.toMatchObject({
      code: "input_schema_error",
    });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM runs WHERE run_id = ?").bind("run_cf_bad_input").first("n")).toBe(0);
    expect((await runStub("run_cf_bad_input").events({ limit: 1 })).length).toBe(0);
    const input = { ticketId: "T-8", transcript: "The export button does nothing." };
    expect((await runWorkflow(summarizeTicket, input, { runId: "run_cf_reused" })).status).toBe("completed");
    await expect(runWorkflow(summarizeTicket, { ...input, ticketId: "T-9" }, { runId: "run_cf_reused" })).rejects.toBeInstanceOf(
      StartRefusedError,
    );
    await expect(runWorkflow(summarizeTicket, { ...input, ticketId: "T-9" }, { runId: "run_cf_reused" })).rejects.toMatchObject({
      code: "run_id_conflict",
    });
  });

  it("refuses a workflow the Worker does not register, with a named error", async () => {
    const stranger = defineWorkflow({ ...summarizeTicketDefinition, id: "not.registered" });
    await expect(runWorkflow(stranger, {})).rejects.toBeInstanceOf(WorkflowNotRegisteredError);
  });
});
