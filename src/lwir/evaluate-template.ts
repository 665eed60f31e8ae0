import { parseTemplate, type TemplateExpr } from "./template.ts";

/** What templates read: the run input and the outputs of finished steps. */
export type TemplateScope = { readonly input: unknown; readonly steps: Readonly<Record<string, unknown>>; readonly item?: unknown };

/**
 * Renders a template string. A string that is exactly one `{{ expr }}` keeps the value's JSON
 * type; expressions embedded in text become strings (objects as JSON, missing values as ""). Only
 * own properties are read, so nothing reaches a prototype.
 *
 * @example
 * renderTemplate("{{ input.n }}", { input: { n: 3 }, steps: {} })        // 3
 * renderTemplate("n = {{ input.n }}", { input: { n: 3 }, steps: {} })    // "n = 3"
 */
export function renderTemplate(text: string, scope: TemplateScope): unknown {
  const parsed = parseTemplate(text);
  if (!parsed.ok) throw new Error(`template does not parse: ${parsed.error.message}`);
  const [only] = parsed.parts;
  if (parsed.parts.length === 1 && only?.kind === "expr") return evaluate(only.expr, scope);
  return parsed.parts.map((p) => (p.kind === "text" ? p.text : embed(evaluate(p.expr, scope)))).join("");
}

/** Renders every string inside a JSON value (objects and arrays recursively). */
export function renderValue(value: unknown, scope: TemplateScope): unknown {
  if (typeof value === "string") return value.includes("{{") ? renderTemplate(value, scope) : value;
  if (Array.isArray(value)) return value.map((v) => renderValue(v, scope));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renderValue(v, scope)]));
  return value;
}

function evaluate(expr: TemplateExpr, scope: TemplateScope): unknown {
  switch (expr.type) {
    case "literal":
      return expr.value;
    case "input":
      return read(scope.input, expr.path);
    case "item":
      return read(scope.item, expr.path);
    case "step":
      return Object.hasOwn(scope.steps, expr.stepId) ? read(scope.steps[expr.stepId], expr.path) : undefined;
    case "call":
      return call(
        expr.name,
        expr.args.map((a) => evaluate(a, scope)),
      );
  }
}

function read(root: unknown, path: readonly (string | number)[]): unknown {
  let value = root;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    if (Array.isArray(value)) {
      if (typeof key !== "number") return key === "length" ? value.length : undefined;
      value = value[key];
    } else {
      if (!Object.hasOwn(value, key)) return undefined;
      value = (value as Record<string, unknown>)[String(key)];
    }
  }
  return value;
}

function call(name: string, args: unknown[]): unknown {
  const [a, b] = args;
  switch (name) {
    case "json":
      return JSON.stringify(a ?? null);
    case "length":
      if (typeof a === "string" || Array.isArray(a)) return a.length;
      return a !== null && typeof a === "object" ? Object.keys(a).length : 0;
    case "upper":
      return embed(a).toUpperCase();
    case "lower":
      return embed(a).toLowerCase();
    case "trim":
      return embed(a).trim();
    case "join":
      return Array.isArray(a) ? a.map(embed).join(embed(b)) : embed(a);
    case "default":
      return a === undefined || a === null || a === "" ? b : a;
    case "eq":
      return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
    case "ne":
      return JSON.stringify(a ?? null) !== JSON.stringify(b ?? null);
    case "gt":
      return comparable(a, b) && (a as number) > (b as number);
    case "gte":
      return comparable(a, b) && (a as number) >= (b as number);
    case "lt":
      return comparable(a, b) && (a as number) < (b as number);
    case "lte":
      return comparable(a, b) && (a as number) <= (b as number);
    case "and":
      return truthy(a) && truthy(b);
    case "or":
      return truthy(a) || truthy(b);
    case "not":
      return !truthy(a);
    case "contains":
      if (typeof a === "string") return a.includes(embed(b));
      return Array.isArray(a) && a.some((x) => JSON.stringify(x) === JSON.stringify(b ?? null));
    default:
      throw new Error(`unknown template function ${name}`);
  }
}

function embed(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

/** Truthiness for decisions: false, null, missing, 0, "" and [] are false; everything else true. */
export function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return Boolean(value);
}

function comparable(a: unknown, b: unknown): boolean {
  return (typeof a === "number" && typeof b === "number") || (typeof a === "string" && typeof b === "string");
}
