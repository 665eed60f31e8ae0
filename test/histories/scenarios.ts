/**
 * The runs whose event logs are saved under test/histories/ (one JSON file each) and replayed on
 * every test run. Together they cover every step kind: ai.generate, tool.call, code.run repaired by
 * a fixer, decision, fan-out, a decision loop, an outer loop that re-plans (after a supervised
 * output, and after a failed cycle), wait.sleep and wait.signal (wait-scenarios.ts). Models are scripted
 * and the clock is injected, so recording twice gives the same log.
 *
 * The same builders serve recording (`live: true`: tools answer, scripted models answer) and
 * replay (`live: false`: every model and tool call is refused and counted on `outbound`).
 */
import { MockLanguageModelV4 } from "ai/test";
import { z } from "zod";
import type { RegisteredWorkflow } from "../../src/engine/run-environment.ts";
import { summarizeTicket, summarizeTicketDefinition } from "../../src/examples/support-summarize-ticket.ts";
import type { ChildRuns } from "../../src/ports/child-runs.ts";
import type { FlowGate } from "../../src/ports/flow-limiter.ts";
import type { ModelResolver } from "../../src/ports/model-resolver.ts";
import type { RunEventPayloads } from "../../src/ports/run-events.ts";
import type { SourceRuns } from "../../src/ports/source-runs.ts";
import type { VersionStore } from "../../src/ports/version-store.ts";
import { defineWorkflow, type WorkflowDefinition, type WorkflowDefinitionInput } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";
import { tool } from "../../src/sdk/tool.ts";
import { CountingSink } from "../reliability/durability/support/counting-sink.ts";
import { goldenRig } from "../reliability/durability/support/golden-workflow.ts";
import { replanPlanner } from "../support/replan-workflow.ts";
import { resolverFor, scriptedPlanner, scriptedWorker } from "../support/scripted-models.ts";
import { flowQueued } from "./flow-scenarios.ts";
import { pausedResumed } from "./pause-scenarios.ts";
import { waitSignal, waitSleep } from "./wait-scenarios.ts";

/** A model or tool call made while replaying a saved history: replay must make none. */
export class OutboundCallRefusedError extends Error {
  constructor(what: string) {
    super(`replay made an outbound call: ${what}`);
    this.name = "OutboundCallRefusedError";
  }
}

/** How a scenario is built: live for recording, or refusing every outbound call for replay. */
export type ScenarioIo = { readonly live: boolean; readonly outbound: CountingSink };

/** A seeded change to the code under replay. */
export type Mutation = "planner_prompt_changed" | "tool_removed" | "tool_input_changed";

/** One scenario, built for one mode. */
export type ScenarioRun = {
  readonly registered: RegisteredWorkflow;
  readonly input: unknown;
  readonly lwir?: Record<string, unknown>;
  readonly models: ModelResolver;
  /** Signals sent to the run right after its request (recording only: a history holds them). */
  readonly signals?: readonly { readonly signalId: string; readonly name: string; readonly payload: unknown }[];
  /** Workflows the scenario's workflow may call, and where its child runs start (workflow.run). */
  readonly callees?: readonly RegisteredWorkflow[];
  readonly children?: ChildRuns;
  /** A restart or fork: its source run's log, and a version store holding the source's version (fork-history.ts). */
  readonly sourceRuns?: SourceRuns;
  readonly versions?: VersionStore;
  /**
   * Flow control (recording only: a history holds it): the gates the request carries, and the
   * limiter's answers appended after it: queued, then admitted `admittedAfterMs` later.
   */
  readonly flow?: {
    readonly gates: readonly FlowGate[];
    readonly queued: RunEventPayloads["FlowQueued"];
    readonly admittedAfterMs: number;
  };
  /**
   * An operator's pause and resume (recording only: a history holds them): `RunPaused` while step
   * `duringStep` runs, `RunResumed` `resumeAfterMs` after the slice yielded.
   */
  readonly pause?: { readonly duringStep: string; readonly by: string; readonly resumeAfterMs: number };
};

export type Scenario = {
  readonly name: string;
  readonly covers: readonly string[];
  /** Code changes that replay must detect. */
  readonly mutations: readonly Mutation[];
  build(io: ScenarioIo, mutation?: Mutation): ScenarioRun;
};

/** A resolver that, in replay, refuses every model and counts it. */
export function guardModels(io: ScenarioIo, live: ModelResolver): ModelResolver {
  if (io.live) return live;
  return {
    resolve: (request) => ({
      model: new MockLanguageModelV4({
        provider: request.providerId,
        modelId: request.modelId,
        doGenerate: async () => {
          io.outbound.deliver(`model:${request.role}:${request.slotId}`);
          throw new OutboundCallRefusedError(`model ${request.slotId} (${request.role})`);
        },
      }),
      offline: false,
    }),
  };
}

export function guardTool<T>(io: ScenarioIo, name: string, answer: (input: T) => unknown) {
  return async (input: T, options: { toolCallId?: string }) => {
    if (!io.live) {
      io.outbound.deliver(`tool:${name}:${options.toolCallId ?? "?"}`);
      throw new OutboundCallRefusedError(`tool ${name}`);
    }
    return answer(input);
  };
}

function withPlannerSystem<D extends WorkflowDefinition>(definition: D, mutation: Mutation | undefined): D {
  if (mutation !== "planner_prompt_changed") return definition;
  return { ...definition, planner: { ...definition.planner, system: `${definition.planner.system} Prefer fewer steps.` } };
}

const seedSummarize: Scenario = {
  name: "seed-summarize",
  covers: ["planner session (bash, submit_lwir)", "ai.generate"],
  mutations: ["planner_prompt_changed"],
  build: (io, mutation) => ({
    registered: { definition: withPlannerSystem(summarizeTicket, mutation), tools: {} },
    input: { ticketId: "T-1", transcript: "Customer cannot log in since Monday; they lose sales every hour." },
    models: guardModels(io, resolverFor(scriptedPlanner(), scriptedWorker())),
  }),
};

const goldenComposite: Scenario = {
  name: "golden-composite",
  covers: ["planner session", "ai.generate", "tool.call", "code.run with a fixer", "fan-out (16 branches)"],
  mutations: ["planner_prompt_changed", "tool_removed"],
  build: (io, mutation) => {
    const rig = goldenRig();
    const base = rig.catalogEntry.definition;
    const tools = Object.fromEntries(
      Object.entries(base.tools)
        .filter(([id]) => !(mutation === "tool_removed" && id === "notify.send"))
        .map(([id, t]) => [
          id,
          { ...t, execute: guardTool(io, id, (input) => (t.execute as (i: unknown, o: unknown) => unknown)(input, {})) },
        ]),
    );
    const definition = withPlannerSystem({ ...base, tools } as typeof base, mutation);
    return {
      registered: { definition, tools: {} },
      input: { ticketId: "T-42", recipients: Array.from({ length: 16 }, (_, i) => `r${String(i + 1).padStart(2, "0")}`) },
      models: guardModels(io, rig.models),
    };
  },
};

export const UNUSED = new MockLanguageModelV4({ provider: "mock", modelId: "m" });

/** A definition for pinned-LWIR scenarios: one tool that echoes which branch ran (and the signals given, if any). */
export function pinnedDefinition(io: ScenarioIo, id: string, signals?: WorkflowDefinitionInput["signals"]) {
  let tries = 0;
  return defineWorkflow({
    ...(signals ? { signals } : {}),
    id,
    description: `History scenario ${id}.`,
    input: z.object({ amount: z.number().optional(), need: z.number().optional() }),
    output: { mode: "json" },
    models: [model(UNUSED, { description: "unused" })],
    planner: { model: UNUSED, system: "unused: these runs carry their LWIR" },
    tools: {
      act: tool({
        description: "Records which branch ran",
        inputSchema: z.object({ branch: z.string(), amount: z.number().optional() }),
        execute: guardTool(io, "act", ({ branch }: { branch: string }) => ({ handledBy: branch })),
      }),
      attempt: tool({
        description: "Tries once more",
        inputSchema: z.object({}),
        execute: guardTool(io, "attempt", () => {
          tries += 1;
          return { tries };
        }),
      }),
    },
  });
}

export function lwirOf(name: string, steps: unknown[], tools: string[]) {
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name, version: "0.1.0" },
    input: { schema: { type: "object", properties: { amount: { type: "number" }, need: { type: "number" } } } },
    output: { schema: true },
    permissions: { models: [], tools, secrets: [], network: [] },
    steps,
  };
}

const decisionRoute: Scenario = {
  name: "decision-route",
  covers: ["decision", "StepSkipped", "tool.call", "join"],
  mutations: ["tool_input_changed"],
  build: (io, mutation) => ({
    registered: { definition: pinnedDefinition(io, "history.route"), tools: {} },
    input: { amount: 20 },
    models: guardModels(io, { resolve: () => ({ model: UNUSED, offline: false }) }),
    lwir: lwirOf(
      "history.route",
      [
        {
          id: "route",
          uses: "decision",
          needs: [],
          with: { cases: [{ when: "{{ gt(input.amount, 100) }}", step: "escalate" }], default: "auto-approve" },
        },
        {
          id: "escalate",
          uses: "tool.call",
          needs: ["route"],
          with: { tool: "act", input: { branch: "escalate", amount: "{{ input.amount }}" } },
          output: { mode: "json" },
        },
        {
          id: "auto-approve",
          uses: "tool.call",
          needs: ["route"],
          with: { tool: "act", input: { branch: mutation === "tool_input_changed" ? "auto-v2" : "auto" } },
          output: { mode: "json" },
        },
        {
          id: "done",
          uses: "tool.call",
          needs: ["escalate", "auto-approve"],
          with: { tool: "act", input: { branch: "{{ default(steps.escalate.output.handledBy, steps.auto-approve.output.handledBy) }}" } },
          output: { mode: "json" },
        },
      ],
      ["act"],
    ),
  }),
};

const loopRetry: Scenario = {
  name: "loop-retry",
  covers: ["decision loop (visits <step>@k)", "tool.call"],
  mutations: ["tool_input_changed"],
  build: (io, mutation) => ({
    registered: { definition: pinnedDefinition(io, "history.loop"), tools: {} },
    input: { need: 3 },
    models: guardModels(io, { resolve: () => ({ model: UNUSED, offline: false }) }),
    lwir: lwirOf(
      "history.loop",
      [
        { id: "try", uses: "tool.call", needs: [], with: { tool: "attempt" }, output: { mode: "json" } },
        {
          id: "check",
          uses: "decision",
          needs: ["try"],
          with: { cases: [{ when: "{{ lt(steps.try.output.tries, input.need) }}", step: "try" }], default: "done", maxVisits: 5 },
        },
        {
          id: "done",
          uses: "tool.call",
          needs: ["check"],
          with: { tool: "act", input: { branch: mutation === "tool_input_changed" ? "finish-v2" : "finish" } },
          output: { mode: "json" },
        },
      ],
      ["act", "attempt"],
    ),
  }),
};

const outerLoopReplan: Scenario = {
  name: "outer-loop-replan",
  covers: ["outer loop: supervise re-plans once, then accepts", "two planner sessions", "ai.generate per cycle"],
  mutations: ["planner_prompt_changed"],
  build: (io, mutation) => {
    const definition = defineWorkflow({
      id: summarizeTicket.id,
      description: summarizeTicket.description,
      input: summarizeTicket.input,
      output: summarizeTicket.output,
      models: summarizeTicket.models,
      planner: summarizeTicket.planner,
      outerLoop: {
        maxCycles: 3,
        supervise: (c) => (c.cycleNumber === 1 ? { decision: "replan", summary: "Severity was too low." } : { decision: "accept" }),
      },
    });
    return {
      registered: { definition: withPlannerSystem(definition, mutation), tools: {} },
      input: { ticketId: "T-9", transcript: "The invoice was charged twice." },
      models: guardModels(io, resolverFor(scriptedPlanner(), scriptedWorker())),
    };
  },
};

const outerLoopFailedCycle: Scenario = {
  name: "outer-loop-failed-cycle",
  covers: [
    "outer loop: cycle 1 fails at a tool.call step, is supervised as failed and re-planned",
    "the failure (cause, step, error) in cycle 2's plan task",
    "cycle 2 completes",
  ],
  mutations: [],
  build: (io) => {
    const definition = defineWorkflow({
      ...summarizeTicketDefinition,
      tools: {
        crm: tool({
          description: "Look a ticket up in the CRM",
          inputSchema: z.object({ ticketId: z.string() }),
          outputSchema: z.object({ summary: z.string(), severity: z.enum(["low", "medium", "high"]) }),
          execute: guardTool(io, "crm", ({ ticketId }: { ticketId: string }) => {
            throw new Error(`CRM is down for ${ticketId}`);
          }),
        }),
      },
      outerLoop: {
        maxCycles: 3,
        supervise: (c) => (c.status === "failed" ? { decision: "replan", summary: "" } : { decision: "accept" }),
      },
    });
    return {
      registered: { definition, tools: {} },
      input: { ticketId: "T-9", transcript: "The invoice was charged twice." },
      models: guardModels(io, resolverFor(replanPlanner([1], []), scriptedWorker())),
    };
  },
};

const TEXT = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };

/**
 * A caller whose one workflow.run step runs `history.callee`. Recorded against a child host that
 * answers the child as completed at its start (the path of a parent resumed after the child's end
 * was not told to it); in replay every child start is refused: the step is answered from the log.
 */
const childRun: Scenario = {
  name: "child-run",
  covers: ["workflow.run: ChildRunStarted, ChildRunEnded, the step answered with the child's output"],
  mutations: [],
  build: (io) => {
    const unused = {
      models: [model(UNUSED, { description: "unused" })],
      planner: { model: UNUSED, system: "unused: the run carries its LWIR" },
    };
    const callee = defineWorkflow({
      id: "history.callee",
      description: "Echo the text.",
      input: TEXT,
      output: { mode: "json" },
      ...unused,
    });
    const caller = defineWorkflow({
      id: "history.caller",
      description: "Run history.callee on the text.",
      input: TEXT,
      output: { mode: "json" },
      ...unused,
      workflows: [callee],
    });
    const children: ChildRuns = {
      startChild: async (request) => {
        io.outbound.deliver(`child:${request.workflowId}:${request.runId}`);
        if (!io.live) throw new OutboundCallRefusedError(`child run of ${request.workflowId}`);
        const output = { echoed: (request.input as { text: string }).text };
        return {
          ok: true,
          view: {
            runId: request.runId,
            status: "completed",
            output,
            workflowId: request.workflowId,
            tenant: request.tenant,
            eventCount: 4,
            createdAt: 0,
          },
        };
      },
      cancel: async () => {},
      tellParent: async () => ({ ok: false, code: "run_not_found", message: "no parent" }),
    };
    return {
      registered: { definition: caller, tools: {} },
      callees: [{ definition: callee, tools: {} }],
      children,
      input: { text: "from the parent" },
      models: guardModels(io, { resolve: () => ({ model: UNUSED, offline: false }) }),
      lwir: {
        apiVersion: "littleworkflow.dev/v0.1",
        kind: "Workflow",
        metadata: { name: "history.caller", version: "0.1.0" },
        input: { schema: TEXT },
        output: { schema: true },
        permissions: { models: [], tools: [], secrets: [], network: [] },
        steps: [
          {
            id: "call",
            uses: "workflow.run",
            needs: [],
            with: { workflow: "history.callee", input: { text: "{{ input.text }}" } },
            output: { mode: "json" },
          },
        ],
      },
    };
  },
};

/** Every saved scenario, by file name (test/histories/<name>.json). */
export const SCENARIOS: readonly Scenario[] = [
  seedSummarize,
  goldenComposite,
  decisionRoute,
  loopRetry,
  outerLoopReplan,
  outerLoopFailedCycle,
  waitSleep,
  waitSignal,
  childRun,
  flowQueued,
  pausedResumed,
];

/** A fresh outbound counter and the mode's io. */
export function scenarioIo(live: boolean): ScenarioIo {
  return { live, outbound: new CountingSink() };
}
