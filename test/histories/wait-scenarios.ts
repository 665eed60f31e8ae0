/**
 * The saved histories of the wait kinds (issue 26): a tool call then a `wait.sleep` (last, so the
 * replayed clock reaches its start exactly as recorded), and a `wait.signal` that takes a signal
 * sent before it (buffered) and hands its payload to a tool call.
 */
import { z } from "zod";
import { guardModels, lwirOf, pinnedDefinition, type Scenario, type ScenarioIo, UNUSED } from "./scenarios.ts";

const signals = { "manager.decision": { schema: z.object({ approved: z.boolean() }), description: "The manager's call" } };
const waitDefinition = (io: ScenarioIo, id: string) => pinnedDefinition(io, id, signals);

const noModels = (io: ScenarioIo) => guardModels(io, { resolve: () => ({ model: UNUSED, offline: false }) });

export const waitSleep: Scenario = {
  name: "wait-sleep",
  covers: ["wait.sleep (WaitStarted, a yield to its deadline, wokeAt)", "tool.call"],
  mutations: ["tool_input_changed"],
  build: (io, mutation) => ({
    registered: { definition: waitDefinition(io, "history.sleep"), tools: {} },
    input: { amount: 5 },
    models: noModels(io),
    lwir: lwirOf(
      "history.sleep",
      [
        {
          id: "act",
          uses: "tool.call",
          needs: [],
          with: { tool: "act", input: { branch: mutation === "tool_input_changed" ? "before-v2" : "before" } },
          output: { mode: "json" },
        },
        { id: "nap", uses: "wait.sleep", needs: ["act"], with: { durationMs: 90_000 } },
      ],
      ["act"],
    ),
  }),
};

export const waitSignal: Scenario = {
  name: "wait-signal",
  covers: ["wait.signal taking a buffered signal (SignalReceived, WaitStarted, SignalConsumed)", "decision on its payload", "tool.call"],
  mutations: ["tool_input_changed"],
  build: (io, mutation) => ({
    registered: { definition: waitDefinition(io, "history.signal"), tools: {} },
    input: { amount: 7 },
    models: noModels(io),
    signals: [{ signalId: "sig-history-1", name: "manager.decision", payload: { approved: true } }],
    lwir: lwirOf(
      "history.signal",
      [
        { id: "decide", uses: "wait.signal", needs: [], with: { signals: ["manager.decision"], timeoutMs: 86_400_000 } },
        {
          id: "route",
          uses: "decision",
          needs: ["decide"],
          with: { cases: [{ when: "{{ steps.decide.output.payload.approved }}", step: "approved" }], default: "declined" },
        },
        {
          id: "approved",
          uses: "tool.call",
          needs: ["route"],
          with: { tool: "act", input: { branch: mutation === "tool_input_changed" ? "approved-v2" : "approved" } },
          output: { mode: "json" },
        },
        {
          id: "declined",
          uses: "tool.call",
          needs: ["route"],
          with: { tool: "act", input: { branch: "declined" } },
          output: { mode: "json" },
        },
        {
          id: "done",
          uses: "tool.call",
          needs: ["approved", "declined"],
          with: { tool: "act", input: { branch: "{{ default(steps.approved.output.handledBy, steps.declined.output.handledBy) }}" } },
          output: { mode: "json" },
        },
      ],
      ["act"],
    ),
  }),
};
