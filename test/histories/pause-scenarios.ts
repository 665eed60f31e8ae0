/**
 * The saved history of a paused and resumed run (issue 29): three tool calls in a chain; an
 * operator pauses the run while its first step runs (`RunPaused`): that step finishes and is
 * recorded, nothing else starts and the slice yields with no alarm; the operator resumes it a
 * minute later (`RunResumed`) and the run goes on from its second step to its end. The pause and the resume come from outside the run (the operator), so
 * the recorder appends them as the run object does and deep replay is given them, like signals.
 */
import { guardModels, lwirOf, pinnedDefinition, type Scenario, UNUSED } from "./scenarios.ts";

export const pausedResumed: Scenario = {
  name: "paused-resumed",
  covers: [
    "RunPaused while the first step runs (it finishes and is recorded; nothing else starts; the slice yields)",
    "RunResumed a minute later",
    "tool.call",
  ],
  mutations: ["tool_input_changed"],
  build: (io, mutation) => ({
    registered: { definition: pinnedDefinition(io, "history.paused"), tools: {} },
    input: { amount: 11 },
    models: guardModels(io, { resolve: () => ({ model: UNUSED, offline: false }) }),
    pause: { duringStep: "first", by: "token:history", resumeAfterMs: 60_000 },
    lwir: lwirOf(
      "history.paused",
      [
        { id: "first", uses: "tool.call", needs: [], with: { tool: "act", input: { branch: "first" } }, output: { mode: "json" } },
        {
          id: "second",
          uses: "tool.call",
          needs: ["first"],
          with: { tool: "act", input: { branch: mutation === "tool_input_changed" ? "second-v2" : "second" } },
          output: { mode: "json" },
        },
        {
          id: "third",
          uses: "tool.call",
          needs: ["second"],
          with: { tool: "act", input: { branch: "{{ steps.second.output.handledBy }}" } },
          output: { mode: "json" },
        },
      ],
      ["act"],
    ),
  }),
};
