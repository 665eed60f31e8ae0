/**
 * The saved history of a fork (test/histories/fork-reuse.json, fork-history.ts) replayed with every
 * model refusing to be called: shallow (the log but its end) and deep (only the request and the
 * model calls given; the engine re-derives the reused steps from the source's log). Then a source
 * log whose recorded output was changed: the fork's reuse follows the source's log, so the step that
 * reads that output asks its model something else and the replay fails closed.
 */
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import type { ModelResolver } from "../../../src/ports/model-resolver.ts";
import type { RunEvent } from "../../../src/ports/run-events.ts";
import { type ForkHistory, seedWorkflow, sourceWorld } from "../../histories/fork-history.ts";
import saved from "../../histories/fork-reuse.json" with { type: "json" };
import type { ScenarioRun } from "../../histories/scenarios.ts";
import { type ReplayOutcome, replayDeep, replayShallow } from "./support/replay-history.ts";

const history = saved as unknown as ForkHistory;

function refusingModels(): { models: ModelResolver; calls: () => number } {
  let calls = 0;
  const models: ModelResolver = {
    resolve: (request) => ({
      model: new MockLanguageModelV4({
        provider: request.providerId,
        modelId: request.modelId,
        doGenerate: async () => {
          calls += 1;
          throw new Error(`replay called model ${request.slotId}`);
        },
      }),
      offline: false,
    }),
  };
  return { models, calls: () => calls };
}

async function runWith(source: readonly RunEvent[]): Promise<{ run: ScenarioRun; calls: () => number }> {
  const { models, calls } = refusingModels();
  const requested = history.events[0];
  const input = requested?.type === "RunRequested" ? requested.payload.input : null;
  return { run: { registered: seedWorkflow, input, models, ...(await sourceWorld(source)) }, calls };
}

const causeOf = (outcome: ReplayOutcome) =>
  (outcome.appended.find((e) => e.type === "RunFailed")?.payload as { causeCode?: string } | undefined)?.causeCode ?? null;

describe("the saved history of a fork", () => {
  it("reuses two steps of its source and runs one, as recorded", () => {
    const reused = history.events.filter((e) => e.type === "StepSucceeded" && e.payload.reused);
    expect(reused.map((e) => (e.type === "StepSucceeded" ? e.payload.stepPath : ""))).toEqual(["c1/extract", "c1/classify"]);
    expect(history.events.filter((e) => e.type === "harness.model.called")).toHaveLength(1);
    expect(history.events.at(-1)?.type).toBe("RunCompleted");
  });

  it("replays shallow and deep: exactly the saved events, no model called", async () => {
    for (const replay of [replayShallow, replayDeep]) {
      const { run, calls } = await runWith(history.source.events);
      const outcome = await replay(history.events, run, history.runId);
      expect(outcome.appended).toEqual(outcome.expected);
      expect(calls()).toBe(0);
    }
  });

  it("follows the source's log: a changed recorded output there makes the reading step's request differ, and the replay fails closed", async () => {
    const tampered = history.source.events.map((e) =>
      e.type === "StepSucceeded" && e.payload.stepPath === "c1/extract"
        ? ({ ...e, payload: { ...e.payload, output: { text: "something else" } } } as RunEvent)
        : e,
    );
    const { run, calls } = await runWith(tampered);
    const outcome = await replayDeep(history.events, run, history.runId);
    expect(outcome.appended).not.toEqual(outcome.expected);
    expect(causeOf(outcome)).toBe("non_deterministic_replay");
    expect(calls()).toBe(0);
  });
});
