import { describe, expect, it } from "vitest";
import { parseStepPath } from "../../src/inspector/step-path.ts";

describe("parseStepPath", () => {
  it("splits cycle, step id, loop visit and fan-out branch", () => {
    expect(parseStepPath("c1/summarize")).toEqual({ occurrence: null, cycle: 1, stepId: "summarize", visit: 1, branch: null });
    expect(parseStepPath("c2/review@3")).toEqual({ occurrence: null, cycle: 2, stepId: "review", visit: 3, branch: null });
    expect(parseStepPath("c1/score[0]")).toEqual({ occurrence: null, cycle: 1, stepId: "score", visit: 1, branch: "0" });
    expect(parseStepPath("c1/score@2[ticket-7]")).toEqual({ occurrence: null, cycle: 1, stepId: "score", visit: 2, branch: "ticket-7" });
  });

  it("reads a section occurrence's prefix", () => {
    expect(parseStepPath("o2/c1/score[a]")).toEqual({ occurrence: "o2", cycle: 1, stepId: "score", visit: 1, branch: "a" });
  });

  it("takes a path of no known shape whole, as a step id of cycle 1", () => {
    expect(parseStepPath("odd path")).toEqual({ occurrence: null, cycle: 1, stepId: "odd path", visit: 1, branch: null });
  });
});
