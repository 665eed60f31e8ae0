import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runWorkflow } from "../../../src/engine/run-workflow.ts";
import type { RunEvent } from "../../../src/ports/run-events.ts";
import type { WorkflowDefinitionInput } from "../../../src/sdk/define-workflow.ts";
import { model } from "../../../src/sdk/model.ts";
import { skill } from "../../../src/sdk/skill.ts";
import { MemoryWorld } from "../../../src/worlds/memory-world.ts";
import { baseDefinition, type Counters, countingResolver, define, lookupTool, mockModel, notifyTool } from "./support/drift-workflow.ts";
import { reportFigure } from "./support/random.ts";

// Item 8 of the reliability suite: every kind of change to a workflow's capabilities (tools,
// models, slots, planner, schemas, memory) between a run's start and its resume is detected as
// `capability_drift` — at the start (inside the planner session) and mid-run (after the first
// step) — with no model or tool call after the detection; re-ordering keys alone changes nothing.

type Change = { name: string; apply: (d: WorkflowDefinitionInput, c: Counters) => WorkflowDefinitionInput };

const worker = (d: WorkflowDefinitionInput) => d.models[0] as ReturnType<typeof model>;

const CHANGES: Change[] = [
  {
    name: "tool description",
    apply: (d, c) => ({ ...d, tools: { ...d.tools, lookup: lookupTool(c, { description: "Looks a plan up" }) } }),
  },
  { name: "unused tool description", apply: (d, c) => ({ ...d, tools: { ...d.tools, notify: notifyTool(c, "Pages the customer") } }) },
  {
    name: "tool input schema",
    apply: (d, c) => ({
      ...d,
      tools: { ...d.tools, lookup: lookupTool(c, { input: z.object({ email: z.string(), region: z.string().optional() }) }) },
    }),
  },
  {
    name: "tool output schema",
    apply: (d, c) => ({
      ...d,
      tools: { ...d.tools, lookup: lookupTool(c, { output: z.object({ plan: z.string(), seats: z.string() }) }) },
    }),
  },
  { name: "tool added", apply: (d, c) => ({ ...d, tools: { ...d.tools, refund: lookupTool(c, { description: "Refunds" }) } }) },
  { name: "unused tool removed", apply: (d, c) => ({ ...d, tools: { lookup: lookupTool(c) } }) },
  {
    name: "worker model id",
    apply: (d) => ({ ...d, models: [model(mockModel("openai.chat", "worker-b"), { id: "worker-a", description: worker(d).description })] }),
  },
  {
    name: "worker model provider",
    apply: (d) => ({ ...d, models: [model(mockModel("anthropic.messages", "worker-a"), { description: worker(d).description })] }),
  },
  { name: "worker model description", apply: (d) => ({ ...d, models: [model(worker(d).model, { description: "Writes long answers." })] }) },
  {
    name: "model slot added",
    apply: (d) => ({ ...d, models: [...d.models, model(mockModel("openai.chat", "judge"), { description: "Judges." })] }),
  },
  { name: "planner prompt", apply: (d) => ({ ...d, planner: { ...d.planner, system: "Plan an answer, then a lookup." } }) },
  { name: "planner model id", apply: (d) => ({ ...d, planner: { ...d.planner, model: mockModel("openai.responses", "planner-b") } }) },
  {
    name: "planner model provider",
    apply: (d) => ({ ...d, planner: { ...d.planner, model: mockModel("google.generative-ai", "planner-a") } }),
  },
  {
    name: "planner skill body",
    apply: (d) => ({
      ...d,
      planner: { ...d.planner, skills: [skill({ name: "lookups", description: "How to look customers up", body: "Never look up." })] },
    }),
  },
  { name: "planner skill removed", apply: (d) => ({ ...d, planner: { ...d.planner, skills: [] } }) },
  { name: "planner revision budget", apply: (d) => ({ ...d, planner: { ...d.planner, maxRevisions: 1 } }) },
  {
    name: "worker skills",
    apply: (d) => ({ ...d, worker: { skills: [skill({ name: "tone", description: "Tone", body: "Be terse." })] } }),
  },
  { name: "memory mode", apply: (d) => ({ ...d, memory: { workflow: "ro", org: "ro" } }) },
];

/**
 * Changes to what the planned LWIR itself names. Caught as drift by the planner session's manifest
 * check at every phase (completed sessions included), and mid-run compile-cycle also maps a
 * recorded LWIR that no longer binds to `capability_drift` (see the tests below).
 */
const LWIR_CHANGES: Change[] = [
  { name: "used tool removed", apply: (d, c) => ({ ...d, tools: { notify: notifyTool(c) } }) },
  { name: "used tool renamed", apply: (d, c) => ({ ...d, tools: { lookup2: lookupTool(c), notify: notifyTool(c) } }) },
  {
    name: "worker slot id",
    apply: (d) => ({ ...d, models: [model(worker(d).model, { id: "writer", description: worker(d).description })] }),
  },
  {
    name: "output schema",
    apply: (d) => ({ ...d, output: { mode: "object", schema: z.object({ answer: z.string(), plan: z.string(), seats: z.number() }) } }),
  }, // Optional, so the recorded input still fits and only the schema (which the LWIR copies) differs.
  {
    name: "input schema",
    apply: (d) => ({ ...d, input: z.object({ email: z.string(), question: z.string(), vip: z.boolean().optional() }) }),
  },
];

/** The same definition with the keys of every object (definition, tools, planner, models, memory, pricing) in another order. */
function reorderedKeys(d: WorkflowDefinitionInput): WorkflowDefinitionInput {
  const w = worker(d);
  const tools = d.tools ?? {};
  return {
    memory: { org: "ro", workflow: "rw" },
    tools: Object.fromEntries(Object.entries(tools).reverse()),
    planner: { maxRevisions: 3, skills: d.planner.skills, system: d.planner.system, model: d.planner.model },
    models: [model(w.model, { pricing: { outputPerMillionTokens: 2, inputPerMillionTokens: 1 }, description: w.description })],
    output: { schema: (d.output as { schema: unknown }).schema, mode: "object" },
    input: d.input,
    description: d.description,
    id: d.id,
  };
}

/** The same schemas with their zod object fields declared in another order. */
function reorderedFields(d: WorkflowDefinitionInput, c: Counters): WorkflowDefinitionInput {
  return {
    ...d,
    tools: {
      ...d.tools,
      lookup: lookupTool(c, {
        input: z.object({ region: z.string(), email: z.string() }),
        output: z.object({ seats: z.number(), plan: z.string() }),
      }),
    },
    input: z.object({ question: z.string(), email: z.string() }),
    output: { mode: "object", schema: z.object({ plan: z.string(), answer: z.string() }) },
  };
}

type Phase = { name: string; cut: (events: readonly RunEvent[]) => number };

const PHASES: Phase[] = [
  // Inside the planner session: its model answered, the session has not completed.
  { name: "start", cut: (events) => events.findIndex((e) => e.type === "harness.model.responded") + 1 },
  // Planned, not registered: a crash between the planner's harness.session.completed and
  // WorkflowVersionRegistered. The completed session is drift-checked, not compiled as recorded.
  {
    name: "planned",
    cut: (events) => events.findIndex((e) => e.type === "harness.session.completed" && e.payload.role === "planner") + 1,
  },
  // After the first step succeeded: the tool ran, the worker has not.
  { name: "mid-run", cut: (events) => events.findIndex((e) => e.type === "StepSucceeded") + 1 },
];

/** Runs the base definition to its end, cuts the log at the phase, and resumes with `next`. */
async function resumeWith(phase: Phase, next: (counters: Counters) => WorkflowDefinitionInput, runId: string) {
  const counters: Counters = { planner: 0, worker: 0, tool: 0 };
  const world = new MemoryWorld({ models: countingResolver(counters) });
  const input = { email: "ada@example.com", question: "How many seats?" };
  const first = await runWorkflow(define(baseDefinition(counters)), input, { world, runId });
  expect(first.status, JSON.stringify(first.cause)).toBe("completed");
  const log = world.logs.get(runId);
  const events = (await log?.all()) ?? [];
  const keep = phase.cut(events);
  expect(keep).toBeGreaterThan(0);
  log?.truncateAfter(keep);
  const before = { ...counters };
  const resumed = await runWorkflow(define(next(counters)), input, { world, runId });
  return { resumed, before, after: { ...counters } };
}

async function detections(phase: Phase, changes: readonly Change[]) {
  const missed: string[] = [];
  const callsAfter: string[] = [];
  for (const change of changes) {
    const { resumed, before, after } = await resumeWith(
      phase,
      (c) => change.apply(baseDefinition(c), c),
      `run_drift_${phase.name}_${change.name.replaceAll(" ", "_")}`,
    );
    if (resumed.cause?.code !== "capability_drift")
      missed.push(`${change.name}: ${resumed.status} ${resumed.cause?.code ?? ""} ${resumed.cause?.message ?? ""}`);
    else if (JSON.stringify(after) !== JSON.stringify(before)) callsAfter.push(`${change.name}: ${JSON.stringify({ before, after })}`);
  }
  return { missed, callsAfter };
}

describe("capability drift", () => {
  for (const phase of PHASES) {
    const all = phase.name === "mid-run" ? CHANGES : [...CHANGES, ...LWIR_CHANGES];
    it(`every kind of change is detected at ${phase.name} resume, with no model or tool call after it`, async () => {
      const { missed, callsAfter } = await detections(phase, all);
      reportFigure(`capability drift at ${phase.name}`, {
        changes: all.length,
        detected: all.length - missed.length,
        callsAfterDetection: callsAfter.length,
      });
      expect(missed).toEqual([]);
      expect(callsAfter).toEqual([]);
    });

    it(`re-ordering keys alone is no drift at ${phase.name} resume: the run completes by replay`, async () => {
      const reordered = await resumeWith(phase, (c) => reorderedKeys(baseDefinition(c)), `run_drift_reorder_${phase.name}`);
      const unchanged = await resumeWith(phase, (c) => baseDefinition(c), `run_drift_unchanged_${phase.name}`);
      expect(reordered.resumed.status, JSON.stringify(reordered.resumed.cause)).toBe("completed");
      expect(reordered.resumed.output).toEqual(unchanged.resumed.output);
      // Exactly the calls an unchanged resume makes (those cut off the log), no more: the rest replay.
      const made = (r: typeof reordered) => ({
        planner: r.after.planner - r.before.planner,
        worker: r.after.worker - r.before.worker,
        tool: r.after.tool - r.before.tool,
      });
      expect(made(reordered)).toEqual(made(unchanged));
      reportFigure(`capability drift reorder at ${phase.name}`, { falsePositives: 0 });
    });

    // Was a bug (src/schema normalization): a JSON Schema's `required` array kept the order the zod
    // fields were declared in, so declaring the same fields in another order changed the definition
    // hash: a false capability_drift. Schema normalizer @2 is order-free (docs/identity.md).
    it(`re-ordering zod object fields alone is no drift at ${phase.name} resume`, async () => {
      const { resumed } = await resumeWith(phase, (c) => reorderedFields(baseDefinition(c), c), `run_drift_fields_${phase.name}`);
      expect(resumed.status, JSON.stringify(resumed.cause)).toBe("completed");
    });
  }

  // Mid-run the completed planner session is manifest-checked (src/harness/run-session.ts), and
  // before that fix the binding pass met the change first: src/engine/compile-cycle.ts reports a
  // registered cycle whose recorded LWIR no longer binds as capability_drift too.
  it("changes to what the LWIR names are reported as capability_drift mid-run", async () => {
    const { missed } = await detections(PHASES[2] as Phase, LWIR_CHANGES);
    reportFigure("capability drift mid-run, LWIR-named changes", { changes: LWIR_CHANGES.length, misnamed: missed.length });
    expect(missed).toEqual([]);
  });

  it("mid-run, changes to what the LWIR names still fail closed before any model or tool call", async () => {
    for (const change of LWIR_CHANGES) {
      const { resumed, before, after } = await resumeWith(
        PHASES[2] as Phase,
        (c) => change.apply(baseDefinition(c), c),
        `run_drift_closed_${change.name.replaceAll(" ", "_")}`,
      );
      expect(resumed.status, change.name).toBe("failed");
      expect(after, change.name).toEqual(before);
    }
  });
});
