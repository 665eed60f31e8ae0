import { describe, expect, it } from "vitest";
import { deriveRunState } from "../../src/engine/run-state.ts";
import { reduceRunEvents } from "../../src/inspector/run-view.ts";
import type { RunEvent } from "../../src/ports/run-events.ts";
import { completedRun, logOf } from "./events.ts";

/** The same log with every model answer marked as coming from a real provider. */
function realAnswers(events: readonly RunEvent[]): RunEvent[] {
  return events.map((e) =>
    e.type === "harness.model.responded"
      ? ({ ...e, payload: { ...e.payload, model: { ...e.payload.model, offline: false } } } as RunEvent)
      : e,
  );
}

describe("offline answers are flagged from harness.model.responded (offline: true)", () => {
  it("the inspector's view and the run state list the same offline models, in first-seen order", () => {
    const events = logOf(completedRun);
    expect(reduceRunEvents(events).offlineModels).toEqual(["offline/x", "offline/y"]);
    expect(deriveRunState(events).offlineModels).toEqual(["offline/x", "offline/y"]);
  });

  it("a run answered only by real providers lists none", () => {
    const events = realAnswers(logOf(completedRun));
    expect(reduceRunEvents(events).offlineModels).toEqual([]);
    expect(deriveRunState(events).offlineModels).toEqual([]);
  });
});
