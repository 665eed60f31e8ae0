/**
 * The workflows the benchmarks run, registered next to the Worker's own (bench/worker/entry.ts),
 * and the LWIR documents for them. Each is the smallest thing that exercises one cost: a tool that
 * returns at once (engine overhead per step), and models that answer after a fixed latency
 * (replay, fan-out). The LWIR is built from the definition's own normalized schemas so that it
 * binds (`bindLwir`) exactly as a planner's would.
 */
import { z } from "zod";
import { capabilitiesOf } from "../../src/api/workflow-capabilities.ts";
import { catalogOf, type RegisteredWorkflow } from "../../src/engine/run-environment.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";
import { tool } from "../../src/sdk/tool.ts";
import { registeredWorkflows } from "../../src/workflows.ts";
import { benchModel } from "./counting-models.ts";
import { waitWorkflow } from "./wait-routes.ts";

/** A tool that returns at once: a `tool.call` step of it costs only the engine. */
const noop = tool({
  description: "Returns at once; the benchmarks use it to measure the engine's own cost per step.",
  inputSchema: z.object({ i: z.number().optional() }),
  outputSchema: z.object({ ok: z.boolean() }),
  execute: async () => ({ ok: true }),
});

/** Model slot ids; the slot's model id carries its latency (see counting-models.ts). */
export const SLOT_50MS = "bench-50ms";
export const SLOT_200MS = "bench-200ms";

const planner = { model: benchModel("bench-planner"), system: "Benchmarks give their LWIR; the planner is not used." };

export const NOOP_WORKFLOW = "bench.noop";
export const MODEL_WORKFLOW = "bench.model";

const noopWorkflow = defineWorkflow({
  id: NOOP_WORKFLOW,
  description: "Chains or fans out no-op tool calls.",
  input: z.object({ items: z.array(z.number()).max(1_000).optional() }),
  output: { mode: "json" },
  models: [model(benchModel("bench-fast"), { id: "fast", description: "Unused by the no-op steps." })],
  planner,
  tools: { noop },
  maxConcurrency: 64,
});

const modelWorkflow = defineWorkflow({
  id: MODEL_WORKFLOW,
  description: "Chains or fans out ai.generate steps on models with a fixed latency.",
  input: z.object({ topic: z.string() }),
  output: { mode: "json" },
  models: [
    model(benchModel(SLOT_50MS), { id: SLOT_50MS, description: "Answers after 50 ms." }),
    model(benchModel(SLOT_200MS), { id: SLOT_200MS, description: "Answers after 200 ms." }),
  ],
  planner,
  tools: { noop },
  // 16 independent steps in flight at once (the production default is 6; see BENCHMARKS.md).
  maxConcurrency: 16,
});

export const CALLER_WORKFLOW = "bench.caller";

/** Calls bench.noop as a child run (workflow.run): the child-overhead scenario. */
const callerWorkflow = defineWorkflow({
  id: CALLER_WORKFLOW,
  description: "Runs bench.noop as a child run.",
  input: z.object({}),
  output: { mode: "json" },
  models: [model(benchModel("bench-fast"), { id: "fast", description: "Unused by the workflow.run step." })],
  planner,
  workflows: [NOOP_WORKFLOW],
});

/** The no-op workflow with flow control (bench/flow-control.ts): keyed by `input.items`, a wide and a tight limit. */
export const FLOW_WIDE_WORKFLOW = "bench.flow-wide";
export const FLOW_5_WORKFLOW = "bench.flow-5";
const flowWide = defineWorkflow({ ...noopWorkflowInput(FLOW_WIDE_WORKFLOW), concurrency: { key: "{{ input.items }}", limit: 10_000 } });
const flow5 = defineWorkflow({ ...noopWorkflowInput(FLOW_5_WORKFLOW), concurrency: { key: "{{ input.items }}", limit: 5 } });

function noopWorkflowInput(id: string) {
  return {
    id,
    description: "Chains no-op tool calls under a concurrency limit per key.",
    input: z.object({ items: z.array(z.number()).max(1_000).optional() }),
    output: { mode: "json" as const },
    models: [model(benchModel("bench-fast"), { id: "fast", description: "Unused by the no-op steps." })],
    planner,
    tools: { noop },
  };
}

export const benchWorkflows: RegisteredWorkflow[] = [
  { definition: noopWorkflow, tools: {} },
  { definition: modelWorkflow, tools: {} },
  { definition: callerWorkflow, tools: {} },
  { definition: flowWide, tools: {} },
  { definition: flow5, tools: {} },
];

/** The Worker's workflows plus the bench ones. */
export const benchCatalog = catalogOf([...registeredWorkflows, ...benchWorkflows, waitWorkflow]);

/** The LWIR shapes the scenarios run. */
export type LwirShape =
  /** `n` no-op tool.call steps, each needing the one before. */
  | { kind: "noop-chain"; n: number }
  /** `n` no-op tool.call steps fanned out over `input.items` (≤ 1,000 each), chained. */
  | { kind: "noop-fan-out"; n: number }
  /** `n` ai.generate steps on `slot`, each needing the one before. */
  | { kind: "model-chain"; n: number; slot: string }
  /** `n` independent ai.generate steps on `slot`, joined by a no-op tool.call. */
  | { kind: "model-parallel"; n: number; slot: string }
  /** One workflow.run of bench.noop (its planner, the offline model, plans it), `n` = 1. */
  | { kind: "child-call"; n: number };

const workflowOf = (shape: LwirShape) =>
  shape.kind === "child-call" ? CALLER_WORKFLOW : shape.kind.startsWith("noop") ? NOOP_WORKFLOW : MODEL_WORKFLOW;

/** Builds the LWIR document for `shape`, with the definition's normalized schemas. */
export async function benchLwir(shape: LwirShape): Promise<{ workflowId: string; lwir: Record<string, unknown> }> {
  const workflowId = workflowOf(shape);
  const registered = benchCatalog.get(workflowId) as RegisteredWorkflow;
  const caps = await capabilitiesOf(registered);
  const ids = Array.from({ length: shape.n }, (_, i) => `s${i + 1}`);
  const prev = (i: number) => (i === 0 ? [] : [ids[i - 1] as string]);
  let steps: Record<string, unknown>[];
  let models: string[] = [];
  let tools = ["noop"];
  switch (shape.kind) {
    case "child-call":
      tools = [];
      steps = [{ id: "call", uses: "workflow.run", needs: [], with: { workflow: NOOP_WORKFLOW, input: {} }, output: { mode: "json" } }];
      break;
    case "noop-chain":
      steps = ids.map((id, i) => ({
        id,
        uses: "tool.call",
        needs: prev(i),
        with: { tool: "noop", input: { i } },
        output: { mode: "json" },
      }));
      break;
    case "noop-fan-out":
      steps = ids.map((id, i) => ({
        id,
        uses: "tool.call",
        needs: prev(i),
        forEach: { items: "{{ input.items }}", maxConcurrency: 64 },
        with: { tool: "noop", input: { i: "{{ item }}" } },
        output: { mode: "json" },
      }));
      break;
    case "model-chain":
      models = [shape.slot];
      steps = ids.map((id, i) => ({
        id,
        uses: "ai.generate",
        needs: prev(i),
        with: { model: shape.slot, prompt: `Step ${i + 1} of a chain about {{ input.topic }}.` },
        output: { mode: "text" },
      }));
      break;
    case "model-parallel":
      models = [shape.slot];
      steps = [
        ...ids.map((id, i) => ({
          id,
          uses: "ai.generate",
          needs: [],
          with: { model: shape.slot, prompt: `Branch ${i + 1} about {{ input.topic }}.` },
          output: { mode: "text" },
        })),
        { id: "join", uses: "tool.call", needs: ids, with: { tool: "noop", input: {} }, output: { mode: "json" } },
      ];
      break;
  }
  const lwir = {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: workflowId, version: "0.1.0" },
    input: { schema: caps.inputSchema },
    output: { schema: caps.outputSchema },
    permissions: { models, tools, secrets: [], network: [] },
    steps,
  };
  return { workflowId, lwir };
}
