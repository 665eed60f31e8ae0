/**
 * The template grammar for step inputs: `{{ input.x }}`, `{{ steps.<id>.output.<path> }}`,
 * literals, and calls to a fixed list of functions. Anything else is refused at validation, so
 * the runtime never evaluates arbitrary code a planner wrote.
 *
 *   expr     := call | ref | literal
 *   call     := name "(" [ expr ( "," expr )* ] ")"
 *   ref      := "input" access* | "item" access* | "steps" "." stepId "." "output" access*
 *   access   := "." ident | "[" integer "]" | "[" string "]"
 *   literal  := string | number | "true" | "false" | "null"
 */

/** Functions a template may call, with their arity. */
export const TEMPLATE_FUNCTIONS = {
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
} as const;
export type TemplateFunction = keyof typeof TEMPLATE_FUNCTIONS;

export const FORBIDDEN_PROPERTIES: ReadonlySet<string> = new Set(["__proto__", "prototype", "constructor"]);

export type TemplateExpr =
  | { readonly type: "input"; readonly path: readonly (string | number)[] }
  | { readonly type: "item"; readonly path: readonly (string | number)[] }
  | { readonly type: "step"; readonly stepId: string; readonly path: readonly (string | number)[] }
  | { readonly type: "literal"; readonly value: string | number | boolean | null }
  | { readonly type: "call"; readonly name: string; readonly args: readonly TemplateExpr[] };

/** A piece of a template string: literal text or an expression with its source text. */
export type TemplatePart =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "expr"; readonly source: string; readonly expr: TemplateExpr };

/** Why a template failed to parse; `code` is an LWIR finding code. */
export type TemplateError = {
  readonly code: "template.syntax" | "template.unterminated" | "template.unknown_root" | "template.forbidden_property";
  readonly message: string;
};

export type ParsedTemplate =
  | { readonly ok: true; readonly parts: readonly TemplatePart[] }
  | { readonly ok: false; readonly error: TemplateError };

const MAX_EXPRESSION_LENGTH = 1_000;

/** True when the string contains a `{{`, i.e. it is a template rather than plain text. */
export function isTemplate(text: string): boolean {
  return text.includes("{{");
}

/**
 * Splits a template string into text and parsed expressions.
 *
 * @example
 * parseTemplate("Ticket {{ input.ticketId }}") // ok, parts: [text "Ticket ", expr input.ticketId]
 */
export function parseTemplate(text: string): ParsedTemplate {
  const parts: TemplatePart[] = [];
  let index = 0;
  while (index < text.length) {
    const open = text.indexOf("{{", index);
    if (open === -1) {
      parts.push({ kind: "text", text: text.slice(index) });
      break;
    }
    if (open > index) parts.push({ kind: "text", text: text.slice(index, open) });
    const close = text.indexOf("}}", open + 2);
    if (close === -1) return fail("template.unterminated", `"{{" at offset ${open} has no closing "}}"`);
    const source = text.slice(open + 2, close).trim();
    if (source.length > MAX_EXPRESSION_LENGTH)
      return fail("template.syntax", `expression at offset ${open} is longer than ${MAX_EXPRESSION_LENGTH} characters`);
    const parsed = parseExpression(source);
    if (!parsed.ok) return parsed;
    parts.push({ kind: "expr", source, expr: parsed.expr });
    index = close + 2;
  }
  return { ok: true, parts };
}

/** Parses one expression (the text between `{{` and `}}`). */
export function parseExpression(source: string): { ok: true; expr: TemplateExpr } | { ok: false; error: TemplateError } {
  const parser = new ExpressionParser(source);
  try {
    const expr = parser.expression();
    parser.skipSpace();
    if (!parser.atEnd()) throw new ParseFailure("template.syntax", `unexpected "${parser.rest().slice(0, 20)}" in "${source}"`);
    return { ok: true, expr };
  } catch (error) {
    if (error instanceof ParseFailure) return { ok: false, error: { code: error.code, message: error.message } };
    throw error;
  }
}

/** Every step id an expression reads. */
export function stepReferences(expr: TemplateExpr): string[] {
  switch (expr.type) {
    case "step":
      return [expr.stepId];
    case "call":
      return expr.args.flatMap(stepReferences);
    default:
      return [];
  }
}

/** Every expression (calls included, then their arguments) in a parsed template. */
export function expressionsOf(parts: readonly TemplatePart[]): TemplateExpr[] {
  const out: TemplateExpr[] = [];
  const visit = (e: TemplateExpr) => {
    out.push(e);
    if (e.type === "call") e.args.forEach(visit);
  };
  for (const p of parts) if (p.kind === "expr") visit(p.expr);
  return out;
}

function fail(code: TemplateError["code"], message: string): ParsedTemplate {
  return { ok: false, error: { code, message } };
}

class ParseFailure extends Error {
  readonly code: TemplateError["code"];
  constructor(code: TemplateError["code"], message: string) {
    super(message);
    this.code = code;
  }
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*/;
const STEP_ID = /^[a-z][a-z0-9_-]*/;
const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/;

class ExpressionParser {
  private pos = 0;
  private depth = 0;
  private readonly src: string;
  constructor(src: string) {
    this.src = src;
  }

  atEnd(): boolean {
    return this.pos >= this.src.length;
  }
  rest(): string {
    return this.src.slice(this.pos);
  }
  skipSpace(): void {
    while (this.pos < this.src.length && /\s/.test(this.src[this.pos] as string)) this.pos++;
  }

  expression(): TemplateExpr {
    this.skipSpace();
    if (++this.depth > 16) throw new ParseFailure("template.syntax", "expression nests more than 16 calls deep");
    try {
      const ch = this.src[this.pos];
      if (ch === '"' || ch === "'") return { type: "literal", value: this.string() };
      const number = NUMBER.exec(this.rest());
      if (number && (ch === "-" || /[0-9]/.test(ch ?? ""))) {
        this.pos += number[0].length;
        return { type: "literal", value: Number(number[0]) };
      }
      const word = IDENT.exec(this.rest());
      if (!word) throw new ParseFailure("template.syntax", `expected an expression at "${this.rest().slice(0, 20)}"`);
      const name = word[0];
      this.pos += name.length;
      this.skipSpace();
      if (this.src[this.pos] === "(") return this.call(name);
      if (name === "true" || name === "false") return { type: "literal", value: name === "true" };
      if (name === "null") return { type: "literal", value: null };
      if (name === "input") return { type: "input", path: this.accessors() };
      if (name === "item") return { type: "item", path: this.accessors() };
      if (name === "steps") return this.stepRef();
      throw new ParseFailure(
        "template.unknown_root",
        `"${name}" is not a template root; use input.<field>, item (in a fan-out) or steps.<id>.output`,
      );
    } finally {
      this.depth--;
    }
  }

  private call(name: string): TemplateExpr {
    this.pos++; // "("
    const args: TemplateExpr[] = [];
    this.skipSpace();
    if (this.src[this.pos] === ")") {
      this.pos++;
      return { type: "call", name, args };
    }
    for (;;) {
      args.push(this.expression());
      this.skipSpace();
      const ch = this.src[this.pos];
      this.pos++;
      if (ch === ")") return { type: "call", name, args };
      if (ch !== ",") throw new ParseFailure("template.syntax", `expected "," or ")" in call to ${name}`);
    }
  }

  private stepRef(): TemplateExpr {
    if (this.src[this.pos] !== ".") throw new ParseFailure("template.syntax", 'expected "steps.<id>.output"');
    this.pos++;
    const id = STEP_ID.exec(this.rest());
    if (!id) throw new ParseFailure("template.syntax", 'expected a step id after "steps."');
    this.pos += id[0].length;
    if (!this.rest().startsWith(".output")) throw new ParseFailure("template.syntax", `expected ".output" after "steps.${id[0]}"`);
    this.pos += ".output".length;
    if (IDENT.test(this.rest())) throw new ParseFailure("template.syntax", `expected ".output" after "steps.${id[0]}"`);
    return { type: "step", stepId: id[0], path: this.accessors() };
  }

  private accessors(): (string | number)[] {
    const path: (string | number)[] = [];
    for (;;) {
      this.skipSpace();
      const ch = this.src[this.pos];
      if (ch === ".") {
        this.pos++;
        const word = IDENT.exec(this.rest());
        if (!word) throw new ParseFailure("template.syntax", 'expected a property name after "."');
        this.pos += word[0].length;
        path.push(this.property(word[0]));
      } else if (ch === "[") {
        this.pos++;
        this.skipSpace();
        const quote = this.src[this.pos];
        if (quote === '"' || quote === "'") path.push(this.property(this.string()));
        else {
          const digits = /^[0-9]{1,9}/.exec(this.rest());
          if (!digits) throw new ParseFailure("template.syntax", 'expected an index or a quoted key after "["');
          this.pos += digits[0].length;
          path.push(Number(digits[0]));
        }
        this.skipSpace();
        if (this.src[this.pos] !== "]") throw new ParseFailure("template.syntax", 'expected "]"');
        this.pos++;
      } else return path;
    }
  }

  private property(name: string): string {
    if (FORBIDDEN_PROPERTIES.has(name)) throw new ParseFailure("template.forbidden_property", `"${name}" may not be read in a template`);
    return name;
  }

  private string(): string {
    const quote = this.src[this.pos];
    let out = "";
    this.pos++;
    while (this.pos < this.src.length) {
      const ch = this.src[this.pos] as string;
      this.pos++;
      if (ch === quote) return out;
      if (ch === "\\") {
        const next = this.src[this.pos];
        this.pos++;
        if (next === undefined) break;
        out += next === "n" ? "\n" : next === "t" ? "\t" : next;
      } else out += ch;
    }
    throw new ParseFailure("template.syntax", "unterminated string literal");
  }
}
