import { describe, expect, it } from "vitest";
import { MemoryEventLog } from "../../src/adapters/memory/memory-event-log.ts";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { LWIR_VALIDATOR_ID } from "../../src/identity/lwir-validator-id.ts";
import type { NewRunEvent } from "../../src/ports/run-events.ts";
import { registeredWorkflows } from "../../src/workflows.ts";
import { boundSeedLwir, set } from "../lwir/fixtures.ts";
import { driveLog, ManualClock, RefusingSandbox, requestEvent } from "../reliability/durability/support/log-driver.ts";

const INPUT = { ticketId: "T-7", transcript: "The export button does nothing." };
const summarize = registeredWorkflows.find((w) => w.definition.id === "support.summarize-ticket");

/** Given LWIR whose prompt is the whole input object: @1 let it through (it printed "[object Object]"); @2 refuses it. */
const objectPrompt = () => set(boundSeedLwir(), ["steps", 0, "with", "prompt"], "{{ input }}");

async function drive(runId: string, request: NewRunEvent) {
  const clock = new ManualClock();
  const log = new MemoryEventLog(runId, clock);
  await log.append([request]);
  await driveLog(log, {
    runId,
    registered: summarize as NonNullable<typeof summarize>,
    models: new EnvModelResolver({ mode: "offline", secrets: {} }),
    sandbox: new RefusingSandbox(),
    clock,
  });
  return log.all();
}

describe("a run keeps the LWIR validator it started with", () => {
  it("a log from before validator @2 (no lwirValidator) locks and runs the plan @1 accepted", async () => {
    const events = await drive("run_validator_legacy", requestEvent("support.summarize-ticket", INPUT, objectPrompt()));
    expect(events.map((e) => e.type)).toContain("WorkflowVersionRegistered");
    expect(events.at(-1)?.type).toBe("RunCompleted");
  });

  it("a run started under @2 refuses the same given LWIR as lwir_invalid with the type finding, and registers nothing", async () => {
    const request = requestEvent("support.summarize-ticket", INPUT, objectPrompt());
    const current = { ...request, payload: { ...(request.payload as object), lwirValidator: LWIR_VALIDATOR_ID } } as NewRunEvent;
    const events = await drive("run_validator_current", current);
    expect(events.map((e) => e.type)).not.toContain("WorkflowVersionRegistered");
    const failed = events.at(-1) as { type: string; payload: { causeCode: string } };
    expect(failed.type).toBe("RunFailed");
    expect(failed.payload.causeCode).toBe("lwir_invalid");
    expect(JSON.stringify(failed.payload)).toContain("template.type_mismatch");
  });
});
