import { documentShape, type SchemaNode, shapeSchema } from "./lwir-spec.ts";
import { LWIR_API_VERSION, promptedKinds, STEP_KINDS, type StepKind } from "./types.ts";

/** A JSON Schema document (2020-12) as plain JSON. */
export type LwirJsonSchema = SchemaNode & { readonly $schema: string; readonly $id: string; readonly title: string };

/**
 * The JSON Schema of an LWIR document, generated from the contract `validateLwir` enforces
 * (`lwir-spec.ts`). It says everything a schema can: fields, types, kinds, ranges, patterns. What
 * it cannot say (the graph, templates, file digests, binding to the definition) is left to the
 * validator, whose findings name the exact fix. Served at `GET /v1/lwir/schema`.
 *
 * @example
 * const valid = new Validator(lwirJsonSchema(), "2020-12").validate(doc).valid;
 */
export function lwirJsonSchema(kinds: readonly StepKind[] = STEP_KINDS): LwirJsonSchema {
  // Built once per isolate and kind list: every planner session and `GET /v1/lwir/schema` serve the same document.
  const key = kinds.join(",");
  let schema = full.get(key);
  if (!schema) {
    schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $id: `https://${LWIR_API_VERSION}/lwir.schema.json`,
      title: `LWIR ${LWIR_API_VERSION}`,
      description: "A Little Workflow IR document: a JSON DAG of steps compiled from a workflow definition and a run's input.",
      ...shapeSchema(documentShape(kinds)),
    };
    full.set(key, schema);
  }
  return schema;
}

const full = new Map<string, LwirJsonSchema>();
const provider = new Map<string, SchemaNode>();

/**
 * Keywords every provider's tool calling accepts (OpenAI, Anthropic, Google via the AI SDK):
 * `oneOf` becomes `anyOf`, and numeric/length/pattern constraints are dropped (each field's
 * description still states its range, and the validator enforces it). Google's converter also
 * drops `additionalProperties`, which only loosens the schema.
 */
const PROVIDER_KEYWORDS: ReadonlySet<string> = new Set([
  "type",
  "description",
  "enum",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "anyOf",
]);

/**
 * The LWIR schema in the form providers accept as a tool's parameters (`submit_lwir`). By default
 * the kinds a planner under the newest validator is shown for a definition without callees.
 */
export function providerLwirSchema(kinds: readonly StepKind[] = promptedKinds(3)): SchemaNode {
  const key = kinds.join(",");
  const known = provider.get(key);
  if (known) return known;
  const { $schema: _s, $id: _i, title: _t, ...schema } = lwirJsonSchema(kinds);
  const form = toProviderForm(schema);
  provider.set(key, form);
  return form;
}

function toProviderForm(node: SchemaNode): SchemaNode {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "oneOf" || key === "anyOf") out.anyOf = (value as SchemaNode[]).map(toProviderForm);
    else if (key === "properties")
      out.properties = Object.fromEntries(Object.entries(value as Record<string, SchemaNode>).map(([k, v]) => [k, toProviderForm(v)]));
    else if (key === "items" || (key === "additionalProperties" && typeof value === "object"))
      out[key] = toProviderForm(value as SchemaNode);
    else if (PROVIDER_KEYWORDS.has(key)) out[key] = value;
  }
  return out as SchemaNode;
}
