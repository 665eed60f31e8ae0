import { OUTPUT_MODES } from "../schema/normalize-output-mode.ts";
import { LWIR_API_VERSION, LWIR_KIND, STEP_KINDS, type StepKind } from "./types.ts";

/**
 * The LWIR contract as data: every object of the document with its fields, which are required,
 * their JSON Schema and a one-line meaning. `validateLwir` takes its closed field lists, required
 * fields and numeric bounds from here, and the JSON Schema (`lwirJsonSchema`), the planner's
 * field reference and `/mnt/task/lwir-reference.md` are generated from it, so what a model is
 * shown and what the validator enforces are one source and cannot drift.
 */

/** The JSON Schema keywords the contract uses (a subset OpenAI, Anthropic and Google all accept). */
export type SchemaNode = {
  readonly type?: "object" | "array" | "string" | "integer" | "number" | "boolean";
  readonly description?: string;
  readonly enum?: readonly string[];
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | SchemaNode;
  readonly items?: SchemaNode;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly uniqueItems?: boolean;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly pattern?: string;
  readonly oneOf?: readonly SchemaNode[];
  readonly anyOf?: readonly SchemaNode[];
};

export type FieldSpec = {
  readonly required: boolean;
  /** What the field holds, for people and models. */
  readonly doc: string;
  readonly schema: SchemaNode;
};

/** One closed object of the document. */
export type ShapeSpec = { readonly name: string; readonly fields: Readonly<Record<string, FieldSpec>> };

const req = (doc: string, schema: SchemaNode): FieldSpec => ({ required: true, doc, schema });
const opt = (doc: string, schema: SchemaNode): FieldSpec => ({ required: false, doc, schema });
const str = (extra: Partial<SchemaNode> = {}): SchemaNode => ({ type: "string", ...extra });
const int = (minimum: number, maximum: number): SchemaNode => ({ type: "integer", minimum, maximum });
const strings: SchemaNode = { type: "array", uniqueItems: true, items: { type: "string", pattern: "\\S" } };
const SETTING: SchemaNode = { type: "string", enum: ["deny", "allow"] };
/** A JSON Schema as a field value: any object (or a boolean schema). */
const JSON_SCHEMA: SchemaNode = {
  anyOf: [{ type: "object", description: "a JSON Schema object" }, { type: "boolean" }],
};

/** The field names of a shape, in the order they are documented. */
export function fieldNames(shape: ShapeSpec): readonly string[] {
  return Object.keys(shape.fields);
}

/** `[minimum, maximum]` of an integer field, for the validator's range checks. */
export function bounds(shape: ShapeSpec, field: string): readonly [number, number] {
  const schema = shape.fields[field]?.schema;
  if (schema?.minimum === undefined || schema.maximum === undefined) throw new Error(`${shape.name}.${field} has no bounds`);
  return [schema.minimum, schema.maximum];
}

export const METADATA: ShapeSpec = {
  name: "metadata",
  fields: {
    name: req("the workflow id, exactly the task's workflowSnapshot.id", str({ pattern: "^[a-z0-9](?:[a-z0-9._-]{0,126}[a-z0-9])?$" })),
    version: req('a semantic version of this plan, e.g. "0.1.0"', str({ pattern: "^\\d+\\.\\d+\\.\\d+" })),
    description: opt("one line on what the plan does", str()),
  },
};

export const IO_SCHEMA: ShapeSpec = {
  name: "io",
  fields: { schema: req("a JSON Schema; for the document's input/output exactly the task's inputSchema/outputSchema", JSON_SCHEMA) },
};

export const PERMISSIONS: ShapeSpec = {
  name: "permissions",
  fields: {
    models: req("model slot ids the steps use (from the task's workflowSnapshot.modelSlots[].id)", strings),
    tools: req("tool ids the tool.call steps use (from workflowSnapshot.tools[].id); [] for none", strings),
    secrets: req("secret names the tools need (from workflowSnapshot.secrets); [] for none", strings),
    network: req("hosts code.run may reach (from workflowSnapshot.network); [] for none", strings),
  },
};

export const RETRY: ShapeSpec = {
  name: "retry",
  fields: {
    maxAttempts: req("attempts in all, 1–10", int(1, 10)),
    backoffMs: opt("wait between attempts in ms, 0–3600000", int(0, 3_600_000)),
  },
};

export const FOR_EACH: ShapeSpec = {
  name: "forEach",
  fields: {
    items: req("exactly one template giving an array, e.g. {{ steps.fetch.output.tickets }}; templates of the step read {{ item }}", str()),
    itemKey: opt("template naming each branch, e.g. {{ item.id }} (default: the index)", str()),
    maxConcurrency: opt("branches at once, 1–64", int(1, 64)),
    failureMode: opt("fail_fast (default) or all_settled", { type: "string", enum: ["fail_fast", "all_settled"] }),
  },
};

export const FIXER: ShapeSpec = {
  name: "fixer",
  fields: {
    model: req("a model slot id in permissions.models that repairs the code", str()),
    maxAttempts: req("repairs at most, 1–5", int(1, 5)),
    system: req("the fixer's instructions", str({ pattern: "\\S" })),
  },
};

export const ON_FAILURE: ShapeSpec = {
  name: "onFailure",
  fields: { fixer: opt("a fixer session that repairs the failed code (code.run only)", shapeSchema(FIXER)) },
};

export const AI_GENERATE_WITH: ShapeSpec = {
  name: "ai.generate with",
  fields: {
    model: req("a model slot id listed in permissions.models", str()),
    prompt: req("the user prompt; a template", str({ minLength: 1 })),
    system: opt("a system prompt; a template", str()),
    temperature: opt("0–2", { type: "number", minimum: 0, maximum: 2 }),
    maxOutputTokens: opt("1–1000000", int(1, 1_000_000)),
  },
};

export const TOOL_CALL_WITH: ShapeSpec = {
  name: "tool.call with",
  fields: {
    tool: req("a tool id listed in permissions.tools (from workflowSnapshot.tools[].id)", str()),
    input: opt("the tool's input: an object matching the tool's inputSchema; strings inside are templates", { type: "object" }),
  },
};

export const CODE_FILE: ShapeSpec = {
  name: "code file",
  fields: {
    content: req("the file's source text", str()),
    sha256: req(
      '"sha256:" + hex SHA-256 of the content\'s UTF-8 bytes (bash: printf %s "$content" | sha256sum)',
      str({ pattern: "^sha256:[0-9a-f]{64}$" }),
    ),
  },
};

export const SANDBOX_POLICY: ShapeSpec = {
  name: "sandbox",
  fields: {
    network: req('"deny" or "allow" (allow needs permissions.network)', SETTING),
    env: req('"deny" or "allow"', SETTING),
    fs: req('"deny" or "allow"', SETTING),
  },
};

export const CODE_LIMITS: ShapeSpec = {
  name: "limits",
  fields: { cpuMs: opt("1–300000", int(1, 300_000)), wallMs: opt("1–300000", int(1, 300_000)) },
};

export const CODE_RUN_WITH: ShapeSpec = {
  name: "code.run with",
  fields: {
    entrypoint: req("the file (one of files, .ts/.js/.mjs) that exports `run({ input })`, returning the step's output", str()),
    files: req("file name → { content, sha256 }", { type: "object", additionalProperties: shapeSchema(CODE_FILE) }),
    sandbox: req("{ network, env, fs }, each deny or allow", shapeSchema(SANDBOX_POLICY)),
    input: opt("the value passed as `input` to run(); strings inside are templates", {}),
    limits: opt("{ cpuMs?, wallMs? }", shapeSchema(CODE_LIMITS)),
  },
};

export const DECISION_CASE: ShapeSpec = {
  name: "case",
  fields: {
    when: req('exactly one template, e.g. {{ eq(steps.classify.output, "urgent") }}', str()),
    step: req("the step id chosen when `when` is truthy; that step must list the decision in its needs", str()),
  },
};

export const DECISION_WITH: ShapeSpec = {
  name: "decision with",
  fields: {
    cases: req("[{ when, step }], checked in order", { type: "array", minItems: 1, items: shapeSchema(DECISION_CASE) }),
    default: req("the step id chosen when no case is truthy", str()),
    maxVisits: opt("only for a loop back to an upstream step: runs of that target in all, 1–100", int(1, 100)),
  },
};

/** A wait's longest duration in ms (365 days), as the contract states it. */
const MAX_WAIT: SchemaNode = int(1, 31_536_000_000);

export const WAIT_SLEEP_WITH: ShapeSpec = {
  name: "wait.sleep with",
  fields: {
    durationMs: opt("how long to sleep in ms, 1–31536000000 (365 days); give exactly one of durationMs and until", MAX_WAIT),
    until: opt(
      'a template giving an ISO-8601 instant to sleep until, e.g. "{{ input.remindAt }}" (at most 365 days ahead; a past instant wakes at once)',
      str({ minLength: 1 }),
    ),
  },
};

export const WAIT_SIGNAL_WITH: ShapeSpec = {
  name: "wait.signal with",
  fields: {
    signals: req("names of signals the workflow declares (the task's workflowSnapshot.signals[].name); the first to arrive ends the wait", {
      type: "array",
      minItems: 1,
      uniqueItems: true,
      items: { type: "string", pattern: "^[a-z][a-z0-9_.-]{0,63}$" },
    }),
    timeoutMs: req('how long to wait in ms, 1–31536000000 (365 days); then the output is { "signal": null, "timedOut": true }', MAX_WAIT),
  },
};

export const WORKFLOW_RUN_WITH: ShapeSpec = {
  name: "workflow.run with",
  fields: {
    workflow: req("the id of a workflow this one may call (from the task's callableWorkflows[].id)", str()),
    input: opt("the callee's input: an object matching its inputSchema (callableWorkflows[].inputSchema); strings inside are templates", {
      type: "object",
    }),
  },
};

/** `output` descriptors, one per mode, with exactly the fields that mode takes. */
export const OUTPUT_SHAPES: Readonly<Record<(typeof OUTPUT_MODES)[number], ShapeSpec>> = {
  text: { name: "output (text)", fields: { mode: req("text: the output is a string", { type: "string", enum: ["text"] }) } },
  object: {
    name: "output (object)",
    fields: {
      mode: req("object: the output is an object valid against schema", { type: "string", enum: ["object"] }),
      schema: req('a JSON Schema with type "object"', JSON_SCHEMA),
    },
  },
  array: {
    name: "output (array)",
    fields: {
      mode: req("array: the output is an array valid against schema", { type: "string", enum: ["array"] }),
      schema: req('a JSON Schema with type "array"', JSON_SCHEMA),
    },
  },
  choice: {
    name: "output (choice)",
    fields: {
      mode: req("choice: the output is one of values", { type: "string", enum: ["choice"] }),
      values: req("distinct non-empty strings", { type: "array", minItems: 1, uniqueItems: true, items: { type: "string", minLength: 1 } }),
    },
  },
  json: {
    name: "output (json)",
    fields: {
      mode: req("json: any JSON value", { type: "string", enum: ["json"] }),
      schema: opt("a JSON Schema the value must satisfy", JSON_SCHEMA),
    },
  },
};

const OUTPUT_SCHEMA: SchemaNode = {
  description:
    'what the step returns: { "mode": "text" } | { "mode": "object", "schema" } | { "mode": "array", "schema" } | { "mode": "choice", "values" } | { "mode": "json", "schema"? }',
  oneOf: OUTPUT_MODES.map((mode) => shapeSchema(OUTPUT_SHAPES[mode])),
};

/** The `with` shape of each step kind. */
export const WITH_SHAPES: Readonly<Record<StepKind, ShapeSpec>> = {
  "ai.generate": AI_GENERATE_WITH,
  "tool.call": TOOL_CALL_WITH,
  "code.run": CODE_RUN_WITH,
  decision: DECISION_WITH,
  "wait.sleep": WAIT_SLEEP_WITH,
  "wait.signal": WAIT_SIGNAL_WITH,
  "workflow.run": WORKFLOW_RUN_WITH,
};

const STEP_KIND_DOCS: Readonly<Record<StepKind, string>> = {
  "ai.generate": "a model call",
  "tool.call": "a call to one of the workflow's tools",
  "code.run": "code run in the sandbox",
  decision: "chooses the next step; steps not chosen are skipped",
  "wait.sleep": 'waits a duration or until an instant; outputs { "wokeAt": "<ISO-8601>" }',
  "wait.signal":
    'waits for the first of the named signals or the timeout; outputs { "signal", "payload", "receivedAt", "timedOut": false } or { "signal": null, "timedOut": true }',
  "workflow.run": "runs another workflow as a child run and waits for it; its output is the child's output",
};

/** The kinds whose output is fixed by the kind: `output` may be omitted, and no retry, timeoutMs or forEach applies. */
export const FIXED_OUTPUT_KINDS: readonly StepKind[] = ["wait.sleep", "wait.signal"];

const FIXED_OUTPUT_DOCS: Readonly<Partial<Record<StepKind, string>>> = {
  decision: 'may be omitted; a decision outputs { "chosen": "<step id>" }',
  "wait.sleep": 'may be omitted; a wait.sleep outputs { "wokeAt": "<ISO-8601>" }',
  "wait.signal": 'may be omitted; a wait.signal outputs { "signal", "payload", "receivedAt", "timedOut" }',
};

/** The fields of a step of kind `kind`, `with` and `output` included. */
export function stepShape(kind: StepKind): ShapeSpec {
  const fixedOutput = FIXED_OUTPUT_DOCS[kind];
  return {
    name: `${kind} step`,
    fields: {
      id: req("step id: lowercase letters, digits, _ or -, starting with a letter (≤64)", str({ pattern: "^[a-z][a-z0-9_-]{0,63}$" })),
      uses: req(`"${kind}": ${STEP_KIND_DOCS[kind]}`, { type: "string", enum: [kind] }),
      needs: opt("ids of the steps this one runs after and may read; default []", { type: "array", items: { type: "string" } }),
      with: req(`the ${kind} settings`, shapeSchema(WITH_SHAPES[kind])),
      output:
        fixedOutput !== undefined
          ? opt(fixedOutput, OUTPUT_SCHEMA)
          : req("the output mode; the terminal step's output is the workflow's output", OUTPUT_SCHEMA),
      description: opt("what the step does", str()),
      ...(FIXED_OUTPUT_KINDS.includes(kind)
        ? {}
        : {
            retry: opt("{ maxAttempts, backoffMs? }", shapeSchema(RETRY)),
            timeoutMs: opt("1–86400000", int(1, 86_400_000)),
            forEach: opt("fan-out: run once per element of items", shapeSchema(FOR_EACH)),
          }),
      ...(kind === "code.run" ? { onFailure: opt("{ fixer: { model, maxAttempts, system } }", shapeSchema(ON_FAILURE)) } : {}),
    },
  };
}

/** Every field any step may carry (the validator reports `onFailure` off code.run by its own code). */
export const STEP_FIELD_NAMES: readonly string[] = [...new Set([...STEP_KINDS.flatMap((k) => fieldNames(stepShape(k))), "onFailure"])];

/** The document shape whose steps may be of `kinds` (the validator's is every kind). */
export function documentShape(kinds: readonly StepKind[] = STEP_KINDS): ShapeSpec {
  return {
    name: "document",
    fields: {
      ...DOCUMENT_FIELDS,
      steps: req("a list of steps (not an object); exactly one step is terminal (no other step needs it)", {
        type: "array",
        minItems: 1,
        maxItems: 1_000,
        items: { oneOf: kinds.map((k) => shapeSchema(stepShape(k))) },
      }),
    },
  };
}

const DOCUMENT_FIELDS: Readonly<Record<string, FieldSpec>> = {
  apiVersion: req(`"${LWIR_API_VERSION}"`, { type: "string", enum: [LWIR_API_VERSION] }),
  kind: req(`"${LWIR_KIND}"`, { type: "string", enum: [LWIR_KIND] }),
  metadata: req("{ name, version, description? }", shapeSchema(METADATA)),
  input: req("{ schema }: exactly the task's inputSchema", shapeSchema(IO_SCHEMA)),
  output: req("{ schema }: exactly the task's outputSchema", shapeSchema(IO_SCHEMA)),
  permissions: req("{ models, tools, secrets, network }: all four lists, [] for none", shapeSchema(PERMISSIONS)),
};

export const DOCUMENT: ShapeSpec = documentShape(STEP_KINDS);

/** A closed object schema from a shape. */
export function shapeSchema(shape: ShapeSpec): SchemaNode {
  const properties: Record<string, SchemaNode> = {};
  for (const [name, field] of Object.entries(shape.fields)) properties[name] = { ...field.schema, description: field.doc };
  const required = Object.entries(shape.fields)
    .filter(([, f]) => f.required)
    .map(([n]) => n);
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

/** The field list of a shape as one line: `model, prompt, system?, …`. */
export function fieldSummary(shape: ShapeSpec): string {
  return Object.entries(shape.fields)
    .map(([name, f]) => (f.required ? name : `${name}?`))
    .join(", ");
}
