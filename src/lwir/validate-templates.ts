import type { JsonSchema } from "../schema/normalize-schema.ts";
import { childPath } from "../sdk/json-path.ts";
import type { FindingSink } from "./findings-sink.ts";
import { expressionsOf, isTemplate, parseTemplate, TEMPLATE_FUNCTIONS, type TemplateExpr } from "./template.ts";

/** What a step's templates may refer to. */
export type TemplateScope = {
  readonly stepIds: ReadonlySet<string>;
  readonly upstream: ReadonlySet<string>;
  readonly inputSchema: JsonSchema | undefined;
  /** True inside a fan-out step's `with` and `itemKey`, where `item` is the current element. */
  readonly inFanOut?: boolean;
};

/** Parses every template string inside `value` (recursively) and checks what it refers to. */
export function checkTemplates(sink: FindingSink, value: unknown, path: string, scope: TemplateScope): void {
  const stack: Array<{ value: unknown; path: string }> = [{ value, path }];
  while (stack.length > 0) {
    const item = stack.pop() as { value: unknown; path: string };
    const v = item.value;
    if (typeof v === "string") {
      checkDelimiters(sink, v, item.path);
      if (isTemplate(v)) checkTemplateString(sink, v, item.path, scope);
    } else if (Array.isArray(v)) {
      v.forEach((child, i) => {
        stack.push({ value: child, path: childPath(item.path, i) });
      });
    } else if (typeof v === "object" && v !== null) {
      for (const [key, child] of Object.entries(v)) stack.push({ value: child, path: childPath(item.path, key) });
    }
  }
}

/** `${input.x}`, `{input.x}` or `{{{input.x}}}`: a reference meant as a template, in another syntax. */
const FOREIGN_DELIMITERS =
  /\$\{\s*((?:input|steps|item)\b[^}]*)\}|(?<![{$])\{\s*((?:input|steps|item)\.[^{}]*)\}(?!\})|\{\{\{\s*([^{}]*)\}\}\}/;

function checkDelimiters(sink: FindingSink, text: string, path: string): void {
  const match = FOREIGN_DELIMITERS.exec(text);
  if (!match) return;
  const inner = (match[1] ?? match[2] ?? match[3] ?? "").trim();
  sink.error(
    "template.wrong_delimiters",
    path,
    `${JSON.stringify(match[0])} is not a template: LWIR templates are {{ … }} (two braces each side), e.g. "{{ ${inner} }}"`,
  );
}

function checkTemplateString(sink: FindingSink, text: string, path: string, scope: TemplateScope): void {
  const parsed = parseTemplate(text);
  if (!parsed.ok) {
    const syntax = parsed.error.code === "template.syntax";
    const pipe =
      syntax && /\{\{[^}]*[^|]\|[^|]/.test(text) ? " Filters (a | f) are not supported: call f(a), e.g. {{ upper(input.name) }}." : "";
    const operator =
      syntax && /\{\{[^}]*(==|!=|&&|\|\||>=|<=|[^=!<>-][<>])/.test(text)
        ? ' Operators are not supported: call eq(a, b), ne, gt, gte, lt, lte, and, or, not, e.g. {{ eq(steps.classify.output, "urgent") }}.'
        : "";
    sink.error(parsed.error.code, path, `${parsed.error.message}.${pipe}${operator}`);
    return;
  }
  for (const expr of expressionsOf(parsed.parts)) checkExpression(sink, expr, path, scope);
}

function checkExpression(sink: FindingSink, expr: TemplateExpr, path: string, scope: TemplateScope): void {
  if (expr.type === "call") {
    // Own keys only: `toString`, `constructor`, `__proto__` are inherited, not template functions.
    const arity = Object.hasOwn(TEMPLATE_FUNCTIONS, expr.name) ? (TEMPLATE_FUNCTIONS as Record<string, number>)[expr.name] : undefined;
    if (arity === undefined)
      sink.error(
        "template.unknown_function",
        path,
        `"${expr.name}" is not a template function (${Object.keys(TEMPLATE_FUNCTIONS).join(", ")})`,
      );
    else if (expr.args.length !== arity)
      sink.error(
        "template.function_arity",
        path,
        `${expr.name}() takes ${arity} argument${arity === 1 ? "" : "s"}, not ${expr.args.length}`,
      );
  } else if (expr.type === "step") {
    if (!scope.stepIds.has(expr.stepId)) sink.error("template.unknown_step", path, `steps.${expr.stepId} does not exist`);
    else if (!scope.upstream.has(expr.stepId))
      sink.error("template.step_not_upstream", path, `steps.${expr.stepId} is not upstream of this step; add it to needs`);
  } else if (expr.type === "item") {
    if (!scope.inFanOut)
      sink.error(
        "template.item_outside_fan_out",
        path,
        '`item` is only defined inside a step with forEach: give this step "forEach": { "items": "{{ <an array, e.g. steps.<id>.output.<list>> }}" } to run it once per element, or read one element directly, e.g. {{ steps.<id>.output.<list>[0] }}',
      );
  } else if (expr.type === "input") {
    const field = expr.path[0];
    if (typeof field === "string" && !declaresProperty(scope.inputSchema, field)) {
      sink.warn("template.unknown_input_field", path, `input.${field} is not declared by the input schema`);
    }
  }
}

function declaresProperty(schema: JsonSchema | undefined, field: string): boolean {
  if (typeof schema !== "object" || schema === null) return true;
  const properties = schema.properties;
  if (typeof properties !== "object" || properties === null || Array.isArray(properties)) return true;
  if (Object.hasOwn(properties, field)) return true;
  return schema.additionalProperties !== undefined && schema.additionalProperties !== false;
}
