import { describe, expect, it } from "vitest";
import {
  expressionsOf,
  isTemplate,
  parseExpression,
  parseTemplate,
  stepReferences,
  TEMPLATE_FUNCTIONS,
  type TemplateError,
  type TemplateExpr,
} from "../../src/lwir/template.ts";
import { validateLwir } from "../../src/lwir/validate-lwir.ts";
import { aiStep, type JsonObject, seedLwir, seedWithComputeScore, seedWithSteps, set } from "./fixtures.ts";

function expr(source: string): TemplateExpr {
  const parsed = parseExpression(source);
  if (!parsed.ok) throw new Error(`${source}: ${parsed.error.code} ${parsed.error.message}`);
  return parsed.expr;
}

function refusal(template: string): TemplateError["code"] | "parsed" {
  const parsed = parseTemplate(template);
  return parsed.ok ? "parsed" : parsed.error.code;
}

const input = (...path: (string | number)[]): TemplateExpr => ({ type: "input", path });
const step = (stepId: string, ...path: (string | number)[]): TemplateExpr => ({ type: "step", stepId, path });
const literal = (value: string | number | boolean | null): TemplateExpr => ({ type: "literal", value });
const call = (name: string, ...args: TemplateExpr[]): TemplateExpr => ({ type: "call", name, args });

describe("parseTemplate: what parses", () => {
  it("splits text and expressions, keeping each expression's trimmed source", () => {
    expect(parseTemplate("Ticket {{ input.ticketId }}: {{input.transcript}}!")).toEqual({
      ok: true,
      parts: [
        { kind: "text", text: "Ticket " },
        { kind: "expr", source: "input.ticketId", expr: input("ticketId") },
        { kind: "text", text: ": " },
        { kind: "expr", source: "input.transcript", expr: input("transcript") },
        { kind: "text", text: "!" },
      ],
    });
  });

  it("plain text is one text part, and is not a template", () => {
    expect(isTemplate("no braces { here } }}")).toBe(false);
    expect(isTemplate("a {{ b }}")).toBe(true);
    expect(parseTemplate("no braces { here } }}")).toEqual({ ok: true, parts: [{ kind: "text", text: "no braces { here } }}" }] });
    expect(parseTemplate("")).toEqual({ ok: true, parts: [] });
  });

  it("input paths: dotted, indexed, quoted", () => {
    expect(expr("input")).toEqual(input());
    expect(expr("input.x")).toEqual(input("x"));
    expect(expr("input.customer.emails[2]")).toEqual(input("customer", "emails", 2));
    expect(expr("input['a b'][\"c\"]")).toEqual(input("a b", "c"));
    expect(expr("input._private_1")).toEqual(input("_private_1"));
  });

  it("step references: ids with dashes, paths into the output", () => {
    expect(expr("steps.a-b.output.items[0].name")).toEqual(step("a-b", "items", 0, "name"));
    expect(expr('steps.x.output["weird key"]')).toEqual(step("x", "weird key"));
    expect(expr("steps.compute_score.output")).toEqual(step("compute_score"));
    expect(expr("steps.x.output[12][0]")).toEqual(step("x", 12, 0));
  });

  it("literals: strings (both quotes, escapes), numbers, booleans, null", () => {
    expect(expr('"a \\"quoted\\" \\n word"')).toEqual(literal('a "quoted" \n word'));
    expect(expr("'single'")).toEqual(literal("single"));
    expect(expr("42")).toEqual(literal(42));
    expect(expr("-1.5e3")).toEqual(literal(-1500));
    expect(expr("0")).toEqual(literal(0));
    expect(expr("true")).toEqual(literal(true));
    expect(expr("false")).toEqual(literal(false));
    expect(expr("null")).toEqual(literal(null));
  });

  it('calls: json(...), join(x, ", "), default(input.a, "n/a"), nested, zero arguments', () => {
    expect(expr("json(steps.x.output)")).toEqual(call("json", step("x")));
    expect(expr('join(steps.x.output.tags, ", ")')).toEqual(call("join", step("x", "tags"), literal(", ")));
    expect(expr('default(input.a, "n/a")')).toEqual(call("default", input("a"), literal("n/a")));
    expect(expr('upper( default( input.name , join(steps.list.output, "-") ) )')).toEqual(
      call("upper", call("default", input("name"), call("join", step("list"), literal("-")))),
    );
    expect(expr("length()")).toEqual(call("length"));
  });

  it("stepReferences and expressionsOf walk nested calls", () => {
    const e = expr('default(steps.a.output, join(steps.b.output.items, input.sep), "x")');
    expect(stepReferences(e)).toEqual(["a", "b"]);
    const parsed = parseTemplate(`{{ ${'default(steps.a.output, join(steps.b.output.items, input.sep), "x")'} }} {{ input.y }}`);
    if (!parsed.ok) throw new Error("did not parse");
    expect(expressionsOf(parsed.parts).map((x) => x.type)).toEqual(["call", "step", "call", "step", "input", "literal", "input"]);
  });

  it("the function list is fixed", () => {
    expect(TEMPLATE_FUNCTIONS).toEqual({
      json: 1,
      length: 1,
      upper: 1,
      lower: 1,
      trim: 1,
      join: 2,
      default: 2,
      eq: 2,
      ne: 2,
      gt: 2,
      gte: 2,
      lt: 2,
      lte: 2,
      and: 2,
      or: 2,
      not: 1,
      contains: 2,
    });
  });
});

describe("parseTemplate: what is refused", () => {
  it.each([
    ["{{ input.x", "template.unterminated"],
    ["ok {{ input.a }} then {{ input.b", "template.unterminated"],
    ["{{ input.__proto__ }}", "template.forbidden_property"],
    ['{{ input["__proto__"] }}', "template.forbidden_property"],
    ["{{ input.constructor }}", "template.forbidden_property"],
    ["{{ input.a.constructor.name }}", "template.forbidden_property"],
    ["{{ steps.x.output.prototype }}", "template.forbidden_property"],
    ["{{ steps.x.output['prototype'] }}", "template.forbidden_property"],
    ["{{ json(input.__proto__) }}", "template.forbidden_property"],
    ["{{ process.env }}", "template.unknown_root"],
    ["{{ this }}", "template.unknown_root"],
    ["{{ globalThis.fetch }}", "template.unknown_root"],
    ["{{ a.b() }}", "template.unknown_root"],
    ["{{ json.call(input) }}", "template.unknown_root"],
    ["{{ Input.x }}", "template.unknown_root"],
    ["{{ input.x + 1 }}", "template.syntax"],
    ["{{ input.x() }}", "template.syntax"],
    ["{{ input.x.toString() }}", "template.syntax"],
    ["{{ input.x; input.y }}", "template.syntax"],
    ["{{ input.x || 'a' }}", "template.syntax"],
    ["{{ `tpl` }}", "template.syntax"],
    ["{{ }}", "template.syntax"],
    ["{{ input. }}", "template.syntax"],
    ["{{ input[-1] }}", "template.syntax"],
    ["{{ input[x] }}", "template.syntax"],
    ["{{ input[0 }}", "template.syntax"],
    ["{{ json(input.x }}", "template.syntax"],
    ["{{ join(input.x ', ') }}", "template.syntax"],
    ['{{ "unterminated }}', "template.syntax"],
    ["{{ steps.x.attempts }}", "template.syntax"],
    ["{{ steps.x }}", "template.syntax"],
    ["{{ steps.x.outputs }}", "template.syntax"],
    ["{{ steps.X.output }}", "template.syntax"],
    ["{{ steps[0].output }}", "template.syntax"],
    ["{{ 01 }}", "template.syntax"],
    [`{{ ${"json(".repeat(16)}input${")".repeat(16)} }}`, "template.syntax"],
    [`{{ input.${"a".repeat(1001)} }}`, "template.syntax"],
  ] as const)("%s → %s", (template, code) => {
    expect(refusal(template)).toBe(code);
  });

  it("15 nested calls around a reference parse (16 levels); 16 calls are refused above", () => {
    expect(refusal(`{{ ${"json(".repeat(15)}input${")".repeat(15)} }}`)).toBe("parsed");
  });

  it("calls to unknown functions parse; validation refuses them", () => {
    expect(expr('eval("1")')).toEqual(call("eval", literal("1")));
  });
});

/** The seed with a step's prompt replaced, validated; returns the findings' codes and paths. */
function promptFindings(prompt: string): Array<{ code: string; path: string; severity: string }> {
  const doc = set(seedLwir(), ["steps", 0, "with", "prompt"], prompt);
  return validateLwir(doc).findings.map(({ code, path, severity }) => ({ code, path, severity }));
}

describe("validateLwir: template checks", () => {
  const at = "$.steps[0].with.prompt";

  it.each([
    ['{{ eval("1") }}', "template.unknown_function"],
    ["{{ require(input.ticketId) }}", "template.unknown_function"],
    ["{{ toString(input.ticketId) }}", "template.unknown_function"],
    ["{{ constructor(input.ticketId) }}", "template.unknown_function"],
    ["{{ hasOwnProperty(input.ticketId) }}", "template.unknown_function"],
    ["{{ __proto__(input.ticketId) }}", "template.unknown_function"],
    ["{{ valueOf() }}", "template.unknown_function"],
    ["{{ json(input.ticketId, input.transcript) }}", "template.function_arity"],
    ["{{ join(input.transcript) }}", "template.function_arity"],
    ['{{ default(input.ticketId, "a", "b") }}', "template.function_arity"],
    ["{{ upper() }}", "template.function_arity"],
    ["{{ upper(json(input.ticketId, 1)) }}", "template.function_arity"],
    ["{{ input.ticketId + 1 }}", "template.syntax"],
    ["{{ steps.x.attempts }}", "template.syntax"],
    ["{{ process.env }}", "template.unknown_root"],
    ["{{ input.__proto__ }}", "template.forbidden_property"],
    ["{{ input.ticketId", "template.unterminated"],
  ] as const)("%s → %s", (prompt, code) => {
    expect(promptFindings(prompt)).toEqual([{ code, path: at, severity: "error" }]);
  });

  it("every fixed function with its arity is accepted", () => {
    const prompt =
      '{{ json(input.ticketId) }} {{ length(input.transcript) }} {{ upper(input.ticketId) }} {{ lower(input.ticketId) }} {{ trim(input.transcript) }} {{ join(input.transcript, ", ") }} {{ default(input.ticketId, "n/a") }}';
    expect(promptFindings(prompt)).toEqual([]);
  });

  it("an undeclared input field is a warning; the document stays valid", () => {
    const doc = set(seedLwir(), ["steps", 0, "with", "prompt"], "{{ input.ticketId }} {{ input['priority'] }}");
    const result = validateLwir(doc);
    expect(result.valid).toBe(true);
    expect(result.findings).toEqual([expect.objectContaining({ severity: "warning", code: "template.unknown_input_field", path: at })]);
  });

  it("no warning when the input schema admits additional properties", () => {
    const doc = set(seedLwir(), ["steps", 0, "with", "prompt"], "{{ input.priority }}");
    set(doc, ["input", "schema", "additionalProperties"], { type: "string" });
    expect(validateLwir(doc)).toEqual({ valid: true, findings: [] });
  });

  it("a step that exists but is not upstream through needs → template.step_not_upstream", () => {
    // a and b are siblings under c: b may not read a.
    const doc = seedWithSteps([
      aiStep("a"),
      aiStep("b", [], "{{ steps.a.output }}"),
      aiStep("c", ["a", "b"], "{{ steps.a.output }} {{ steps.b.output }}"),
    ]);
    expect(validateLwir(doc).findings.map(({ code, path }) => ({ code, path }))).toEqual([
      { code: "template.step_not_upstream", path: "$.steps[1].with.prompt" },
    ]);
  });

  it("a step reading its own output is not upstream of itself", () => {
    const doc = seedWithSteps([aiStep("a", [], "{{ steps.a.output }}")]);
    expect(validateLwir(doc).findings.map(({ code, path }) => ({ code, path }))).toEqual([
      { code: "template.step_not_upstream", path: "$.steps[0].with.prompt" },
    ]);
  });

  it("a step that does not exist → template.unknown_step", () => {
    const doc = seedWithSteps([aiStep("a"), aiStep("b", ["a"], "{{ default(steps.a.output, steps.missing.output) }}")]);
    expect(validateLwir(doc).findings.map(({ code, path }) => ({ code, path }))).toEqual([
      { code: "template.unknown_step", path: "$.steps[1].with.prompt" },
    ]);
  });

  it("transitive upstream (through needs of needs) is allowed", () => {
    const doc = seedWithSteps([
      aiStep("a"),
      aiStep("b", ["a"], "{{ steps.a.output }}"),
      aiStep("c", ["b"], "{{ steps.b.output }}"),
      aiStep("d", ["c"], '{{ steps.a.output }} {{ steps.b.output }} {{ join(steps.c.output, ",") }}'),
    ]);
    expect(validateLwir(doc)).toEqual({ valid: true, findings: [] });
  });

  it("system prompts, tool inputs and code.run inputs are checked, deep inside, with exact paths", () => {
    const doc = seedWithComputeScore();
    set(doc, ["steps", 1, "with", "system"], "{{ steps.nope.output }}");
    set(doc, ["steps", 0, "with", "input"], { ticket: { ids: ["ok", "{{ input.ticketId.constructor }}"] }, "odd key": "{{ this }}" });
    const findings = validateLwir(doc).findings.map(({ code, path }) => ({ code, path }));
    expect(findings).toEqual(
      expect.arrayContaining([
        { code: "template.unknown_step", path: "$.steps[1].with.system" },
        { code: "template.forbidden_property", path: "$.steps[0].with.input.ticket.ids[1]" },
        { code: "template.unknown_root", path: '$.steps[0].with.input["odd key"]' },
      ]),
    );
    expect(findings).toHaveLength(3);

    const tool: JsonObject = set(seedLwir(), ["permissions", "tools"], ["crm.lookup"]);
    set(tool, ["steps", 0], {
      id: "summarize",
      uses: "tool.call",
      needs: [],
      with: { tool: "crm.lookup", input: { query: { text: "{{ steps.summarize.output }}" } } },
      output: { mode: "json" },
    });
    expect(validateLwir(tool).findings.map(({ code, path }) => ({ code, path }))).toEqual([
      { code: "template.step_not_upstream", path: "$.steps[0].with.input.query.text" },
    ]);
  });

  it("descriptions are not templates (never evaluated), so they are not checked", () => {
    const doc = set(seedLwir(), ["steps", 0, "description"], "{{ process.env }}");
    expect(validateLwir(doc)).toEqual({ valid: true, findings: [] });
  });
});
