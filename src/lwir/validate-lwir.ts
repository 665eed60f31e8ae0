import { canonicalJson } from "../json/canonical-json.ts";
import type { JsonSchema } from "../schema/normalize-schema.ts";
import type { CanonicalJsonError } from "../sdk/errors/canonical-json-error.ts";
import { LittleError } from "../sdk/errors/little-error.ts";
import { type Finding, hasNoErrors } from "../sdk/finding.ts";
import { childPath } from "../sdk/json-path.ts";
import { FindingSink } from "./findings-sink.ts";
import { findCycle, terminalSteps, upstreamSets } from "./graph.ts";
import { DOCUMENT, fieldSummary, IO_SCHEMA, METADATA, PERMISSIONS } from "./lwir-spec.ts";
import { LWIR_API_VERSION, LWIR_KIND } from "./types.ts";
import { checkJoins } from "./validate-joins.ts";
import { checkSchemaShape } from "./validate-schema-shape.ts";
import { checkStep, readNeeds, STEP_ID_PATTERN, type ValidationHints } from "./validate-step.ts";

/** The largest canonical LWIR document accepted. */
export const MAX_LWIR_BYTES = 4 * 1024 * 1024;
export const MAX_STEPS = 1_000;
const WORKFLOW_NAME = /^[a-z0-9](?:[a-z0-9._-]{0,126}[a-z0-9])?$/;
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const PERMISSION_LISTS = ["models", "tools", "secrets", "network"] as const;

/** The result of validating LWIR: valid when no finding is an error. */
export type LwirValidation = { readonly valid: boolean; readonly findings: readonly Finding[] };

export type { ValidationHints } from "./validate-step.ts";

/**
 * Validates an LWIR document structurally: version and kind, metadata, schemas, permissions,
 * steps (ids, kinds, needs, per-kind `with`, outputs, fixers, templates) and the graph (no cycle,
 * exactly one terminal step). Never throws on bad input: every problem is a finding.
 *
 * @example
 * const { valid, findings } = validateLwir(JSON.parse(text));
 */
export function validateLwir(document: unknown, hints: ValidationHints = {}): LwirValidation {
  const sink = new FindingSink();
  const size = checkDocument(sink, document);
  if (size === null) return done(sink);
  const doc = sink.object(document, "$");
  if (!doc) {
    sink.findings.splice(0, sink.findings.length, {
      severity: "error",
      code: "document.not_object",
      path: "$",
      message: "An LWIR document is a JSON object",
    });
    return done(sink);
  }
  sink.closed(doc, DOCUMENT, "$");
  if (doc.apiVersion !== LWIR_API_VERSION)
    sink.error("api_version.unsupported", "$.apiVersion", `apiVersion must be "${LWIR_API_VERSION}"`);
  if (doc.kind !== LWIR_KIND) sink.error("kind.unsupported", "$.kind", `kind must be "${LWIR_KIND}"`);
  checkMetadata(sink, doc.metadata);
  const inputSchema = checkIoSchema(sink, doc, "input");
  checkIoSchema(sink, doc, "output");
  const permissions = checkPermissions(sink, doc.permissions);
  checkSteps(sink, doc.steps, permissions, inputSchema, hints);
  return done(sink);
}

function done(sink: FindingSink): LwirValidation {
  return { valid: hasNoErrors(sink.findings), findings: sink.findings };
}

function checkDocument(sink: FindingSink, document: unknown): number | null {
  let text: string;
  try {
    text = canonicalJson(document);
  } catch (error) {
    if (LittleError.is(error) && error.code === "canonical_json_rejected") {
      const e = error as CanonicalJsonError;
      sink.error(e.reason === "too_deep" ? "document.too_deep" : "document.not_json", e.path, e.message);
      return null;
    }
    throw error;
  }
  // Canonical JSON is mostly ASCII; string length is a tight lower bound on its UTF-8 size.
  if (text.length > MAX_LWIR_BYTES || new TextEncoder().encode(text).length > MAX_LWIR_BYTES) {
    sink.error("document.too_large", "$", `The canonical document is ${text.length} characters; the limit is ${MAX_LWIR_BYTES} bytes`);
    return null;
  }
  return text.length;
}

function checkMetadata(sink: FindingSink, value: unknown): void {
  if (value === undefined) {
    sink.missing("$.metadata", `{ ${fieldSummary(METADATA)} }`);
    return;
  }
  const metadata = sink.object(value, "$.metadata");
  if (!metadata) return;
  sink.closed(metadata, METADATA, "$.metadata");
  const name = sink.string(metadata, "name", "$.metadata", { hint: METADATA.fields.name?.doc });
  if (name !== undefined && !WORKFLOW_NAME.test(name)) sink.error("metadata.invalid_name", "$.metadata.name");
  const version = sink.string(metadata, "version", "$.metadata", { hint: METADATA.fields.version?.doc });
  if (version !== undefined && !SEMVER.test(version)) sink.error("metadata.invalid_version", "$.metadata.version");
  if (metadata.description !== undefined && typeof metadata.description !== "string")
    sink.error("field.invalid_type", "$.metadata.description", "$.metadata.description must be a string");
}

function checkIoSchema(sink: FindingSink, doc: Record<string, unknown>, key: "input" | "output"): JsonSchema | undefined {
  const path = `$.${key}`;
  if (doc[key] === undefined) {
    sink.missing(path, `{ "schema": <the task's ${key}Schema> }`);
    return undefined;
  }
  const io = sink.object(doc[key], path);
  if (!io) return undefined;
  sink.closed(io, IO_SCHEMA, path);
  if (io.schema === undefined) {
    sink.missing(`${path}.schema`, `the task's ${key}Schema, copied exactly`);
    return undefined;
  }
  return checkSchemaShape(sink, io.schema, `${path}.schema`) === null ? undefined : (io.schema as JsonSchema);
}

type Permissions = Record<(typeof PERMISSION_LISTS)[number], Set<string>>;

function checkPermissions(sink: FindingSink, value: unknown): Permissions {
  const result: Permissions = { models: new Set(), tools: new Set(), secrets: new Set(), network: new Set() };
  if (value === undefined) {
    sink.missing("$.permissions", '{ "models": [...], "tools": [...], "secrets": [...], "network": [...] } (all four lists; [] for none)');
    return result;
  }
  const permissions = sink.object(value, "$.permissions");
  if (!permissions) return result;
  sink.closed(permissions, PERMISSIONS, "$.permissions");
  for (const key of PERMISSION_LISTS) {
    const path = `$.permissions.${key}`;
    const list = permissions[key];
    if (list === undefined) {
      sink.missing(path, `${PERMISSIONS.fields[key]?.doc} (use [] for none)`);
      continue;
    }
    if (!Array.isArray(list)) {
      sink.error("field.invalid_type", path, `${path} must be a list of strings`);
      continue;
    }
    list.forEach((entry, i) => {
      if (typeof entry !== "string" || entry.trim() === "") sink.error("permissions.invalid_entry", childPath(path, i));
      else if (result[key].has(entry)) sink.error("permissions.duplicate", childPath(path, i), `${path} names "${entry}" twice`);
      else result[key].add(entry);
    });
  }
  return result;
}

function checkSteps(
  sink: FindingSink,
  value: unknown,
  permissions: Permissions,
  inputSchema: JsonSchema | undefined,
  hints: ValidationHints,
): void {
  if (value === undefined) {
    sink.missing("$.steps", DOCUMENT.fields.steps?.doc);
    return;
  }
  if (!Array.isArray(value)) {
    const keyed =
      typeof value === "object" && value !== null
        ? ` You gave an object keyed by ${Object.keys(value)
            .slice(0, 3)
            .map((k) => `"${k}"`)
            .join(", ")}: write [{ "id": "<key>", "uses": …, … }, …] with each key as the step's id.`
        : "";
    sink.error("field.invalid_type", "$.steps", `$.steps must be a list of step objects.${keyed}`);
    return;
  }
  if (value.length === 0) {
    sink.error("steps.empty", "$.steps");
    return;
  }
  if (value.length > MAX_STEPS) {
    sink.error("steps.too_many", "$.steps", `${value.length} steps; the limit is ${MAX_STEPS}`);
    return;
  }
  const nodes: Array<{ id: string; needs: string[]; path: string; step: Record<string, unknown> }> = [];
  const ids = new Set<string>();
  value.forEach((raw, i) => {
    const path = childPath("$.steps", i);
    const step = sink.object(raw, path);
    if (!step) return;
    const id = step.id;
    if (id === undefined) sink.missing(`${path}.id`, "a step id: lowercase letters, digits, _ or -, starting with a letter");
    else if (typeof id !== "string" || !STEP_ID_PATTERN.test(id))
      sink.error("step.invalid_id", `${path}.id`, `step id ${JSON.stringify(id)} must match ${STEP_ID_PATTERN.source}`);
    else if (ids.has(id)) sink.error("step.duplicate_id", `${path}.id`, `step id "${id}" is used twice`);
    else ids.add(id);
    nodes.push({ id: typeof id === "string" ? id : `#${i}`, needs: readNeeds(sink, step, path), path, step });
  });
  for (const node of nodes) {
    node.needs.forEach((dep, i) => {
      const at = childPath(`${node.path}.needs`, i);
      if (dep === node.id) sink.error("step.needs_self", at, `step "${node.id}" needs itself`);
      else if (!ids.has(dep)) sink.error("step.needs_unknown", at, `needs names "${dep}", which is not a step`);
    });
  }
  const cycle = findCycle(nodes.map((n) => ({ id: n.id, needs: n.needs.filter((d) => d !== n.id) })));
  if (cycle) {
    const at = nodes.find((n) => n.id === cycle[0])?.path ?? "$.steps";
    sink.error("graph.cycle", `${at}.needs`, `needs form a cycle: ${cycle.join(" → ")}`);
  } else {
    const terminals = terminalSteps(nodes);
    if (terminals.length === 0) sink.error("graph.no_terminal", "$.steps");
    else if (terminals.length > 1)
      sink.error(
        "graph.multiple_terminals",
        "$.steps",
        `steps ${terminals.map((t) => `"${t}"`).join(", ")} are all terminal; exactly one step may be`,
      );
  }
  const upstream = upstreamSets(nodes);
  const needsOf = new Map(nodes.map((n) => [n.id, n.needs]));
  for (const node of nodes) {
    checkStep(sink, node.step, node.path, {
      models: permissions.models,
      tools: permissions.tools,
      networkPermitted: permissions.network.size > 0,
      scope: { stepIds: ids, upstream: upstream.get(node.id) ?? new Set(), inputSchema },
      needsOf,
      hints,
    });
  }
  if (!cycle) checkJoins(sink, nodes, upstream);
}
