/**
 * The saved history of a queued run (issue 28): a run whose start carried a concurrency gate, was
 * queued behind its key (`FlowQueued`, `waiting` with `waitReason: "concurrency"`), admitted when a
 * slot freed (`FlowAdmitted`), then ran its pinned LWIR. The two flow events come from the key's
 * limiter (outside the run), so the recorder appends them after the request and deep replay is
 * given them, like signals.
 */
import type { FlowGate } from "../../src/ports/flow-limiter.ts";
import { guardModels, lwirOf, pinnedDefinition, type Scenario, UNUSED } from "./scenarios.ts";

const GATE: FlowGate = { kind: "concurrency", index: 0, key: "c-42", limit: 2 };

export const flowQueued: Scenario = {
  name: "flow-queued",
  covers: ["a run queued by its concurrency key (RunRequested.flow, FlowQueued, FlowAdmitted) then run", "tool.call"],
  mutations: ["tool_input_changed"],
  build: (io, mutation) => ({
    registered: { definition: pinnedDefinition(io, "history.flow-queued"), tools: {} },
    input: { amount: 3 },
    models: guardModels(io, { resolve: () => ({ model: UNUSED, offline: false }) }),
    flow: {
      gates: [GATE],
      queued: { kind: GATE.kind, gate: GATE.index, key: GATE.key, position: 3 },
      admittedAfterMs: 4_000,
    },
    lwir: lwirOf(
      "history.flow-queued",
      [
        {
          id: "act",
          uses: "tool.call",
          needs: [],
          with: { tool: "act", input: { branch: mutation === "tool_input_changed" ? "queued-v2" : "queued" } },
          output: { mode: "json" },
        },
      ],
      ["act"],
    ),
  }),
};
