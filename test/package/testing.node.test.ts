/**
 * `little-workflow/testing` as a user runs it: plain Node (this is the node project, no workerd),
 * a workflow of their own, imported only through the subpath's entry.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type AuthoredPlan, defineWorkflow, model, snapshotDefinition, tool } from "../../src/index.ts";
import { MemoryWorld, mockModel, modelsFor, offlineModels, runWorkflow } from "../../src/package/testing.ts";

const declared = (id: string) =>
  new (class {
    readonly specificationVersion = "v4" as const;
    readonly provider = "openai.responses";
    readonly modelId = id;
    readonly supportedUrls = {};
    doGenerate(): never {
      throw new Error("a test must never reach a real provider");
    }
    doStream(): never {
      throw new Error("a test must never reach a real provider");
    }
  })();

const triageOutput = z.object({ summary: z.string(), urgency: z.enum(["low", "high"]) });

const triage = defineWorkflow({
  id: "acme.triage",
  description: "Summarize a customer message and rate its urgency.",
  input: z.object({ message: z.string() }),
  output: triageOutput,
  models: [model(declared("gpt-4o-mini"), { description: "Fast model for short structured answers." })],
  planner: { model: declared("gpt-5"), system: "You plan customer-support workflows." },
});

describe("little-workflow/testing", () => {
  it("runs a workflow end to end on the offline models: planned, locked, executed, output valid", async () => {
    const world = new MemoryWorld({ models: offlineModels() });
    const result = await runWorkflow(triage, { message: "I was charged twice" }, { world });
    expect(result.status).toBe("completed");
    expect(triageOutput.safeParse(result.output).success).toBe(true);
    expect(result.versionId).toMatch(/^wfver_/);
    const types = (await world.events(result.runId)).map((e) => e.type);
    expect(types[0]).toBe("RunRequested");
    expect(types.at(-1)).toBe("RunCompleted");
  });

  it("a mock worker decides the output; the same run id replays without calling it again", async () => {
    const worker = mockModel({ summary: "Double charge on the last invoice", urgency: "high" });
    const world = new MemoryWorld({ models: modelsFor({ worker }) });
    const first = await runWorkflow(triage, { message: "I was charged twice" }, { world, runId: "run_mock" });
    expect(first).toMatchObject({ status: "completed", output: { summary: "Double charge on the last invoice", urgency: "high" } });
    expect(worker.calls).toHaveLength(1);
    expect(worker.calls[0]).toContain("I was charged twice");
    const again = await runWorkflow(triage, { message: "I was charged twice" }, { world, runId: "run_mock" });
    expect(again.output).toEqual(first.output);
    expect(worker.calls).toHaveLength(1);
  });

  it("a worker answer that breaks the output schema fails the run with a named cause", async () => {
    const world = new MemoryWorld({ models: modelsFor({ worker: mockModel({ summary: 42 }) }) });
    const result = await runWorkflow(triage, { message: "hello" }, { world });
    expect(result.status).toBe("failed");
    expect(result.cause).toMatchObject({ code: "step_failed", details: { code: "output_invalid" } });
  });

  it("tools get the world's env as context.env", async () => {
    type TestEnv = { readonly GREETING: string };
    const seen: unknown[] = [];
    const greet = tool({
      description: "Greets a customer by name.",
      inputSchema: z.object({ name: z.string() }),
      outputSchema: z.object({ text: z.string() }),
      execute: async ({ name }: { name: string }, { context }) => {
        const env = context.env as TestEnv;
        seen.push(context.idempotencyKey);
        return { text: `${env.GREETING}, ${name}` };
      },
    });
    const greeter = defineWorkflow({
      id: "acme.greet",
      description: "Greet a customer.",
      input: z.object({ name: z.string() }),
      output: z.object({ text: z.string() }),
      models: [model(declared("gpt-4o-mini"), { description: "Fast model." })],
      planner: { model: declared("gpt-5"), system: "You plan greetings." },
      tools: { greet },
    });
    // The plan, as a user pins one: the definition's own (normalized) schemas, one tool.call step.
    const caps = await snapshotDefinition(greeter, {});
    const lwir = {
      apiVersion: "littleworkflow.dev/v0.1",
      kind: "Workflow",
      metadata: { name: "acme.greet", version: "0.1.0", description: "greet once" },
      input: { schema: caps.inputSchema },
      output: { schema: caps.outputSchema },
      permissions: { models: [], tools: ["greet"], secrets: [], network: [] },
      steps: [
        {
          id: "greet",
          uses: "tool.call",
          needs: [],
          with: { tool: "greet", input: { name: "{{ input.name }}" } },
          output: caps.requestedOutput,
        },
      ],
    };
    const world = new MemoryWorld({ models: offlineModels(), env: { GREETING: "Hello" } satisfies TestEnv });
    const result = await runWorkflow(greeter, { name: "Ada" }, { world, lwir });
    expect(result.cause).toBeUndefined();
    expect(result).toMatchObject({ status: "completed", output: { text: "Hello, Ada" } });
    expect(seen).toEqual([`${result.runId}:c1/greet:a1`]);
  });

  describe("the offline planner uses the workflow's own tools", () => {
    const saved: { title: string; text: string }[] = [];
    const saveNote = tool({
      description: "Store a note; answers its id and length.",
      inputSchema: z.object({ title: z.string(), text: z.string() }),
      outputSchema: z.object({ noteId: z.string(), length: z.number().int() }),
      execute: async (note: { title: string; text: string }) => {
        saved.push(note);
        return { noteId: `note-${saved.length}`, length: note.text.length };
      },
    });
    const notes = {
      id: "acme.notes",
      description: "Save a note and say what was saved.",
      input: z.object({ title: z.string(), text: z.string() }),
      output: z.object({ noteId: z.string(), length: z.number(), summary: z.string() }),
      models: [model(declared("gpt-4o-mini"), { description: "Fast model." })],
      planner: { model: declared("gpt-5"), system: "You plan note-taking workflows." },
      tools: { saveNote },
    };

    it("calls the tool with the run's input; the output carries its result, and what it invents reads as a placeholder", async () => {
      saved.length = 0;
      const world = new MemoryWorld({ models: offlineModels() });
      const result = await runWorkflow(defineWorkflow(notes), { title: "Groceries", text: "milk, eggs" }, { world });
      expect(result.cause).toBeUndefined();
      expect(saved).toEqual([{ title: "Groceries", text: "milk, eggs" }]);
      expect(result).toMatchObject({ status: "completed", output: { noteId: "note-1", length: 10, summary: "offline:summary" } });
      const steps = (await world.events(result.runId)).flatMap((e) => (e.type === "StepSucceeded" ? [e.payload] : []));
      expect(steps.map((s) => s.stepPath)).toEqual(["c1/save_note", "c1/generate"]);
    });

    it("a definition's plan is what the offline planner submits, its slots filled from the task", async () => {
      saved.length = 0;
      const plan: AuthoredPlan = {
        apiVersion: "littleworkflow.dev/v0.1",
        kind: "Workflow",
        metadata: { name: "<workflow-id>", version: "0.1.0" },
        input: { schema: "<input-schema>" },
        output: { schema: "<output-schema>" },
        permissions: { models: ["<model-slot>"], tools: ["saveNote"], secrets: [], network: [] },
        steps: [
          {
            id: "save",
            uses: "tool.call",
            needs: [],
            with: { tool: "saveNote", input: { title: "pinned", text: "{{ input.text }}" } },
            output: { mode: "json" },
          },
          {
            id: "report",
            uses: "ai.generate",
            needs: ["save"],
            with: { model: "<model-slot>", prompt: "Saved:\n- note: {{ json(steps.save.output) }}" },
            output: "<requested-output>",
          },
        ],
      };
      const world = new MemoryWorld({ models: offlineModels() });
      const result = await runWorkflow(defineWorkflow({ ...notes, plan }), { title: "ignored", text: "abc" }, { world });
      expect(result.cause).toBeUndefined();
      expect(saved).toEqual([{ title: "pinned", text: "abc" }]);
      expect(result.output).toMatchObject({ noteId: "note-1", length: 3 });
      // The plan is part of the definition: stating one changes the definition hash.
      const [withPlan, without] = await Promise.all([
        snapshotDefinition(defineWorkflow({ ...notes, plan })),
        snapshotDefinition(defineWorkflow(notes)),
      ]);
      expect(withPlan.definitionHash).not.toBe(without.definitionHash);
      expect(() => defineWorkflow({ ...notes, plan: { kind: "Plan" } as never })).toThrow(
        /definition.invalid_plan|plan is an LWIR document/,
      );
    });
  });
});
