/**
 * Two bugs the seeded simulation (item 4) found, each reproduced on its own. Not fixed here
 * (engine files belong to another change); each test states the expected behaviour.
 *
 * 1. StepFailed is not replayed. `deriveRunState`
 * (src/engine/run-state.ts) does not fold `StepFailed`, so a run that crashes after a step's
 * `StepFailed` is durable but before `RunFailed` resumes that step's attempt as if it were still in
 * flight: the tool is called again (same idempotency key) after its failure was recorded, and a
 * second `StepFailed` for the same attempt is appended. Expected: the resume fails the run from the
 * recorded failure without calling anything.
 *
 * 2. A model call whose last recorded failure is final (3 attempts of 429/500) is replayed on resume
 * by `recordedToError` (src/harness/durable-model.ts) as a plain `Error`, which `toRunFailure`
 * (src/engine/drive-run.ts) does not recognise: a run that crashed after that failure was logged
 * throws on every alarm and ends `internal_error` after 5 (≈30 s of backoff), where the same run
 * without the crash ends `model_error` at once.
 */

import { APICallError } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { RunEvent } from "../../../src/ports/run-events.ts";
import { defineWorkflow } from "../../../src/sdk/define-workflow.ts";
import { model } from "../../../src/sdk/model.ts";
import { tool } from "../../../src/sdk/tool.ts";
import { CountingSink } from "./support/counting-sink.ts";
import { CrashingLog, lastAppendWith, SimulatedCrash } from "./support/crashing-log.ts";
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
  it("was a bug, fixed: the resumed run calls the failed tool again and logs a second StepFailed", async () => {
    const { sink, definition, lwir } = failingRun();
    const clock = new ManualClock();
    const setup = {
      runId: "run_bug_step_failed",
      registered: { definition, tools: {} },
      models: { resolve: () => ({ model: UNUSED, offline: false }) },
      sandbox: new RefusingSandbox(),
      clock,
    };
    // A clean run first, to learn which append writes StepFailed (the engine may batch events).
    const probe = new CrashingLog("run_bug_step_failed", clock, []);
    await probe.base.append([requestEvent("bug.step-failed", {}, lwir)]);
    await driveLog(
      probe.incarnation(() => undefined),
      setup,
    );
    const at = lastAppendWith(probe, "StepFailed");
    expect(at).toBeGreaterThan(0);
    sink.clear();
    const log = new CrashingLog("run_bug_step_failed", clock, [{ append: at, when: "after" }]);
    await log.base.append([requestEvent("bug.step-failed", {}, lwir)]);
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

function outageRun() {
  const outage = new MockLanguageModelV4({
    provider: "mock",
    modelId: "worker",
    doGenerate: async () => {
      throw new APICallError({
        message: "simulated 500",
        url: "https://model.invalid",
        requestBodyValues: {},
        statusCode: 500,
        isRetryable: true,
      });
    },
  });
  const definition = defineWorkflow({
    id: "bug.model-outage",
    description: "One ai.generate step against a model that is down.",
    input: z.object({}),
    output: { mode: "json" },
    models: [model(outage, { description: "down", id: "worker" })],
    planner: { model: outage, system: "unused" },
  });
  const lwir = {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "bug.model-outage", version: "0.1.0" },
    input: { schema: { type: "object", properties: {} } },
    output: { schema: true },
    permissions: { models: ["worker"], tools: [], secrets: [], network: [] },
    steps: [{ id: "note", uses: "ai.generate", needs: [], with: { model: "worker", prompt: "Say something." }, output: { mode: "text" } }],
  };
  const setup = (clock: ManualClock, runId: string) => ({
    runId,
    registered: { definition, tools: {} },
    models: { resolve: () => ({ model: outage, offline: false }) },
    sandbox: new RefusingSandbox(),
    clock,
  });
  return { lwir, setup };
}

describe("a crash after a model call's final failure was logged", () => {
  it("without a crash, the run fails with model_error", async () => {
    const { lwir, setup } = outageRun();
    const clock = new ManualClock();
    const log = new CrashingLog("run_outage_clean", clock, []);
    await log.base.append([requestEvent("bug.model-outage", {}, lwir)]);
    await driveLog(
      log.incarnation(() => undefined),
      setup(clock, "run_outage_clean"),
    );
    const last = (await log.base.all()).at(-1) as RunEvent;
    expect(last.type).toBe("RunFailed");
    expect((last.payload as { causeCode: string }).causeCode).toBe("model_error");
  });

  it("was a bug, fixed: the resumed run does not fail with model_error (the replayed failure is an unrecognised Error)", async () => {
    const { lwir, setup } = outageRun();
    const clock = new ManualClock();
    // Crash right after the third (final) harness.model.failed is durable.
    const clean = new CrashingLog("run_outage_probe", clock, []);
    await clean.base.append([requestEvent("bug.model-outage", {}, lwir)]);
    await driveLog(
      clean.incarnation(() => undefined),
      setup(clock, "run_outage_probe"),
    );
    const lastFailure = lastAppendWith(clean, "harness.model.failed");
    expect(lastFailure).toBeGreaterThan(0);
    const log = new CrashingLog("run_outage_crash", clock, [{ append: lastFailure, when: "after" }]);
    await log.base.append([requestEvent("bug.model-outage", {}, lwir)]);
    await driveLog(
      log.incarnation(() => undefined),
      setup(clock, "run_outage_crash"),
    ).catch((error: unknown) => {
      if (!(error instanceof SimulatedCrash)) throw error;
    });
    expect(log.crashes).toBe(1);
    // The resume: today this throws (an alarm failure in the run object) instead of ending the run.
    await driveLog(
      log.incarnation(() => undefined),
      setup(clock, "run_outage_crash"),
    );
    const last = (await log.base.all()).at(-1) as RunEvent;
    expect((last.payload as { causeCode?: string }).causeCode).toBe("model_error");
  });
});
