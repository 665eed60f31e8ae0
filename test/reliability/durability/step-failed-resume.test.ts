/**
 * BUG pinned by the seeded simulation (item 4), reproduced on its own. `deriveRunState`
 * (src/engine/run-state.ts) does not fold `StepFailed`, so a run that crashes after a step's
 * `StepFailed` is durable but before `RunFailed` resumes that step's attempt as if it were still in
 * flight: the tool is called again (same idempotency key) after its failure was recorded, and a
 * second `StepFailed` for the same attempt is appended. Expected: the resume fails the run from the
 * recorded failure without calling anything. Not fixed here (engine files belong to another change).
 */

import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineWorkflow } from "../../../src/sdk/define-workflow.ts";
import { model } from "../../../src/sdk/model.ts";
import { tool } from "../../../src/sdk/tool.ts";
import { CountingSink } from "./support/counting-sink.ts";
import { CrashingLog, SimulatedCrash } from "./support/crashing-log.ts";
import { driveLog, ManualClock, RefusingSandbox, requestEvent } from "./support/log-driver.ts";

const UNUSED = new MockLanguageModelV4({ provider: "mock", modelId: "m" });

function failingRun() {
  const sink = new CountingSink();
  const definition = defineWorkflow({
    id: "bug.step-failed",
    description: "One tool step that fails for good.",
    input: z.object({}),
    output: { mode: "json" },
    models: [model(UNUSED, { description: "unused" })],
    planner: { model: UNUSED, system: "unused" },
    tools: {
      charge: tool({
        description: "Charges a card; this one is declined",
        inputSchema: z.object({}),
        execute: async (_input: unknown, options: { toolCallId?: string }) => {
          sink.deliver(options.toolCallId ?? "?");
          throw Object.assign(new Error("card declined"), { retriable: false });
        },
      }),
    },
  });
  const lwir = {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "bug.step-failed", version: "0.1.0" },
    input: { schema: { type: "object", properties: {} } },
    output: { schema: true },
    permissions: { models: [], tools: ["charge"], secrets: [], network: [] },
    steps: [{ id: "charge", uses: "tool.call", needs: [], with: { tool: "charge" }, output: { mode: "json" } }],
  };
  return { sink, definition, lwir };
}

describe("a crash between StepFailed and RunFailed", () => {
  it.fails("BUG: the resumed run calls the failed tool again and logs a second StepFailed", async () => {
    const { sink, definition, lwir } = failingRun();
    const clock = new ManualClock();
    // Engine appends: 1 WorkflowVersionRegistered, 2 RunStarted, 3 StepScheduled, 4 StepStarted, 5 StepFailed.
    const log = new CrashingLog("run_bug_step_failed", clock, [{ append: 5, when: "after" }]);
    await log.base.append([requestEvent("bug.step-failed", {}, lwir)]);
    const setup = {
      runId: "run_bug_step_failed",
      registered: { definition, tools: {} },
      models: { resolve: () => ({ model: UNUSED, offline: false }) },
      sandbox: new RefusingSandbox(),
      clock,
    };
    await driveLog(
      log.incarnation(() => undefined),
      setup,
    ).catch((error: unknown) => {
      if (!(error instanceof SimulatedCrash)) throw error;
    });
    expect(log.crashes).toBe(1);
    expect((await log.base.all()).at(-1)?.type).toBe("StepFailed");
    await driveLog(
      log.incarnation(() => undefined),
      setup,
    );
    const types = (await log.base.all()).map((e) => e.type);
    expect(types.at(-1)).toBe("RunFailed");
    expect(types.filter((t) => t === "StepFailed")).toHaveLength(1);
    expect(sink.total()).toBe(1);
  });
});
