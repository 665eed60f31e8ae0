import { digestText } from "../json/digest.ts";
import { LWIR_API_VERSION, LWIR_KIND } from "../lwir/types.ts";
import type { CallableWorkflow, PlanTask } from "../ports/planner-protocol.ts";

type Json = Record<string, unknown>;

/** Placeholders the prompt shows instead of repeating the task's schemas; {@link fillExample} replaces them. */
export const INPUT_SCHEMA_PLACEHOLDER = "<the task's inputSchema, copied exactly>";
export const OUTPUT_SCHEMA_PLACEHOLDER = "<the task's outputSchema, copied exactly>";
export const REQUESTED_OUTPUT_PLACEHOLDER = "<the task's requestedOutput, copied exactly>";

/** An example with its placeholders replaced by the task's values: the document a planner would submit. */
export function fillExample(example: Json, task: PlanTask): Json {
  return JSON.parse(JSON.stringify(example), (_key, value) => {
    if (value === INPUT_SCHEMA_PLACEHOLDER) return task.inputSchema;
    if (value === OUTPUT_SCHEMA_PLACEHOLDER) return task.outputSchema;
    if (value === REQUESTED_OUTPUT_PLACEHOLDER) return task.requestedOutput;
    return value;
  }) as Json;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `input.x`, or `input["x-y"]` when the name is not an identifier. */
function inputRef(name: string): string {
  return IDENTIFIER.test(name) ? `input.${name}` : `input[${JSON.stringify(name)}]`;
}

function inputFields(task: PlanTask): string[] {
  const properties = (task.inputSchema as { properties?: unknown } | null)?.properties;
  return properties && typeof properties === "object" ? Object.keys(properties) : [];
}

function header(task: PlanTask, slots: readonly string[], tools: readonly string[]): Json {
  return {
    apiVersion: LWIR_API_VERSION,
    kind: LWIR_KIND,
    metadata: { name: task.workflowSnapshot.id, version: "0.1.0" },
    input: { schema: INPUT_SCHEMA_PLACEHOLDER },
    output: { schema: OUTPUT_SCHEMA_PLACEHOLDER },
    permissions: { models: slots, tools, secrets: [], network: [] },
  };
}

/**
 * A tool.call step of `tool` whose input fields read the input fields of the same name; only those
 * the input has (an example must never read a field the input lacks).
 */
function toolStep(id: string, tool: PlanTask["workflowSnapshot"]["tools"][number], needs: string[], output: unknown, task: PlanTask): Json {
  const has = new Set(inputFields(task));
  const properties = ((tool.inputSchema ?? {}) as { properties?: Record<string, unknown> }).properties ?? {};
  const toolFields = Object.keys(properties).filter((f) => has.has(f));
  return {
    id,
    uses: "tool.call",
    needs,
    with: { tool: tool.id, input: Object.fromEntries(toolFields.map((f) => [f, `{{ ${inputRef(f)} }}`])) },
    output,
  };
}

/** The tools the definition requires every plan to call (docs/lwir.md, "Required tools"). */
function requiredTools(task: PlanTask): PlanTask["workflowSnapshot"]["tools"][number][] {
  const required = new Set(task.workflowSnapshot.requiredTools ?? []);
  return task.workflowSnapshot.tools.filter((t) => required.has(t.id));
}

/**
 * The smallest plan: one step on the task's first slot returning the requested output; when the
 * workflow requires tools, one tool.call of each (the only one returning the requested output).
 */
export function minimalExample(task: PlanTask): Json {
  const required = requiredTools(task);
  if (required.length === 1) {
    const tool = required[0] as (typeof required)[number];
    return { ...header(task, [], [tool.id]), steps: [toolStep("call", tool, [], REQUESTED_OUTPUT_PLACEHOLDER, task)] };
  }
  const slot = task.workflowSnapshot.modelSlots[0]?.id ?? "<slot id>";
  const fields = inputFields(task);
  const lines = fields.length > 0 ? fields.map((f) => `${f}: {{ ${inputRef(f)} }}`).join("\n") : "{{ json(input) }}";
  const calls = required.map((t, i) => toolStep(`call${i + 1}`, t, [], { mode: "json" }, task));
  const results = calls.map((c) => `\n${c.id}: {{ json(steps.${c.id}.output) }}`).join("");
  return {
    ...header(
      task,
      [slot],
      required.map((t) => t.id),
    ),
    steps: [
      ...calls,
      {
        id: "answer",
        uses: "ai.generate",
        needs: calls.map((c) => c.id as string),
        with: { model: slot, prompt: `${task.workflowSnapshot.description}\n${lines}${results}` },
        output: REQUESTED_OUTPUT_PLACEHOLDER,
      },
    ],
  };
}

const SPLIT_SOURCE = `export function run({ input }: { input: { text: string } }) {
  const parts = input.text.match(/[\\s\\S]{1,2000}/g) ?? [];
  return { parts, long: parts.length > 1 };
}
`;

/**
 * A plan with code.run, a decision, a fan-out, a join and (when the task has tools) a tool.call,
 * built from the task's own slots and tools. Its file digest is real, so it validates as shown.
 */
export function branchingExample(task: PlanTask): Json {
  const slot = task.workflowSnapshot.modelSlots[0]?.id ?? "<slot id>";
  const tool = task.workflowSnapshot.tools[0];
  // A required tool must run on every path, so it goes before the decision, not in one branch.
  const required = tool !== undefined && (task.workflowSnapshot.requiredTools ?? []).includes(tool.id);
  const first = required ? [toolStep("act", tool, [], { mode: "json" }, task)] : [];
  const shortBranch =
    tool && !required
      ? toolStep("short", tool, ["route"], { mode: "json" }, task)
      : {
          id: "short",
          uses: "ai.generate",
          needs: ["route"],
          with: { model: slot, prompt: "Answer in one paragraph: {{ steps.split.output.parts[0] }}" },
          output: { mode: "text" },
        };
  return {
    ...header(task, [slot], tool ? [tool.id] : []),
    steps: [
      ...first,
      {
        id: "split",
        uses: "code.run",
        needs: required ? ["act"] : [],
        with: {
          entrypoint: "split.ts",
          files: { "split.ts": { content: SPLIT_SOURCE, sha256: digestText(SPLIT_SOURCE) } },
          sandbox: { network: "deny", env: "deny", fs: "deny" },
          input: { text: "{{ json(input) }}" },
        },
        output: {
          mode: "object",
          schema: {
            type: "object",
            properties: { parts: { type: "array", items: { type: "string" } }, long: { type: "boolean" } },
            required: ["parts", "long"],
          },
        },
        onFailure: { fixer: { model: slot, maxAttempts: 2, system: "Repair the code so run() returns { parts, long }." } },
      },
      {
        id: "route",
        uses: "decision",
        needs: ["split"],
        with: { cases: [{ when: "{{ steps.split.output.long }}", step: "notes" }], default: "short" },
      },
      {
        id: "notes",
        uses: "ai.generate",
        needs: ["route"],
        forEach: { items: "{{ steps.split.output.parts }}", maxConcurrency: 4 },
        with: { model: slot, prompt: "Note the key facts in: {{ item }}" },
        output: { mode: "text" },
      },
      shortBranch,
      {
        id: "answer",
        uses: "ai.generate",
        needs: ["notes", "short"],
        with: { model: slot, prompt: "Write the result from: {{ json(default(steps.notes.output, steps.short.output)) }}" },
        output: REQUESTED_OUTPUT_PLACEHOLDER,
      },
    ],
  };
}

/**
 * When the workflow declares signals (validator `@3`): a plan that waits for the first declared
 * signal with a timeout, branches on `timedOut` with a decision, and joins the branches.
 */
export function signalExample(task: PlanTask): Json | null {
  const signal = task.workflowSnapshot.signals?.[0];
  if (!signal) return null;
  const slot = task.workflowSnapshot.modelSlots[0]?.id ?? "<slot id>";
  const text = (id: string, prompt: string) => ({
    id,
    uses: "ai.generate",
    needs: ["route"],
    with: { model: slot, prompt },
    output: { mode: "text" },
  });
  return {
    ...header(task, [slot], []),
    steps: [
      { id: "wait", uses: "wait.signal", needs: [], with: { signals: [signal.name], timeoutMs: 86_400_000 } },
      {
        id: "route",
        uses: "decision",
        needs: ["wait"],
        with: { cases: [{ when: "{{ steps.wait.output.timedOut }}", step: "late" }], default: "act" },
      },
      text("late", "No answer came in time. Say what happens next."),
      text("act", `Act on the ${signal.name} signal: {{ json(steps.wait.output.payload) }}`),
      {
        id: "answer",
        uses: "ai.generate",
        needs: ["late", "act"],
        with: { model: slot, prompt: "Write the result from: {{ default(steps.late.output, steps.act.output) }}" },
        output: REQUESTED_OUTPUT_PLACEHOLDER,
      },
    ],
  };
}

/** `base.x`, or `base["x-y"]` when the name is not an identifier. */
function ref(base: string, name: string): string {
  return IDENTIFIER.test(name) ? `${base}.${name}` : `${base}[${JSON.stringify(name)}]`;
}

function fieldsOf(schema: unknown): string[] {
  const properties = (schema as { properties?: unknown } | null)?.properties;
  return properties && typeof properties === "object" ? Object.keys(properties) : [];
}

/**
 * The worked example of a `workflow.run` for a task that declares callees (none otherwise): an
 * ai.generate writes the first callee's input (its output schema is the callee's inputSchema),
 * the workflow.run passes it field by field and outputs the callee's requestedOutput, and the
 * terminal step reads the child's output. Built from the task's own slot and callee.
 */
export function callExample(task: PlanTask): Json | null {
  const callee: CallableWorkflow | undefined = task.callableWorkflows?.[0];
  if (!callee) return null;
  const slot = task.workflowSnapshot.modelSlots[0]?.id ?? "<slot id>";
  const input = Object.fromEntries(fieldsOf(callee.inputSchema).map((f) => [f, `{{ ${ref("steps.prepare.output", f)} }}`]));
  return {
    apiVersion: task.lwirApiVersion,
    kind: "Workflow",
    metadata: { name: task.workflowSnapshot.id, version: "0.1.0" },
    input: { schema: INPUT_SCHEMA_PLACEHOLDER },
    output: { schema: OUTPUT_SCHEMA_PLACEHOLDER },
    permissions: { models: [slot], tools: [], secrets: [], network: [] },
    steps: [
      {
        id: "prepare",
        uses: "ai.generate",
        needs: [],
        with: { model: slot, prompt: `Write the input for ${callee.id} (${callee.description}) from: {{ json(input) }}` },
        output: { mode: "object", schema: callee.inputSchema },
      },
      { id: "call", uses: "workflow.run", needs: ["prepare"], with: { workflow: callee.id, input }, output: callee.requestedOutput },
      {
        id: "answer",
        uses: "ai.generate",
        needs: ["call"],
        with: {
          model: slot,
          prompt: `${task.workflowSnapshot.description}\nInput: {{ json(input) }}\n${callee.id}: {{ json(steps.call.output) }}`,
        },
        output: REQUESTED_OUTPUT_PLACEHOLDER,
      },
    ],
  };
}
