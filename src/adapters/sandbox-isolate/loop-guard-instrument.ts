import { type Node, parse } from "acorn";
import { LOOP_GUARD_BUDGET, LOOP_GUARD_MODULE, LOOP_GUARD_TICK } from "./loop-guard-source.ts";
import { IMPORT_SPECIFIER, WORKERS_SHIM_MODULE } from "./workers-module-shim.ts";

/** `syntax`: the module does not parse; `unsupported`: it parses, but cannot be guarded. */
export type Instrumented = { ok: true; code: string } | { ok: false; kind: "syntax" | "unsupported"; message: string };

const LOOPS = new Set(["ForStatement", "ForInStatement", "ForOfStatement", "WhileStatement", "DoWhileStatement"]);
const FUNCTIONS = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"]);
// The countdown is decremented inline and the guard called only when it runs out, cheaper than a
// call per iteration (an empty loop: ~1.4–1.7× against ~1.7×; measured in workerd on a loaded
// 2-core machine, so roughly).
const CALL = `if (--${LOOP_GUARD_BUDGET}.n < 0) ${LOOP_GUARD_TICK}()`;
const CALL_EXPRESSION = `--${LOOP_GUARD_BUDGET}.n < 0 && ${LOOP_GUARD_TICK}()`;

type AnyNode = Node & { [key: string]: unknown };

const MODULE_SOURCES = new Set(["ImportDeclaration", "ExportNamedDeclaration", "ExportAllDeclaration"]);

/**
 * Inserts a call of the loop guard at the top of every loop body and at the entry of every
 * function of one module, and imports the guard. Local workerd has no CPU limit and runs every
 * isolate on one thread, so a synchronous endless loop in user code would freeze the whole
 * `wrangler dev`; the guard (loop-guard-source.ts) throws once the code has run too long without
 * yielding. Every way to keep the thread busy in JavaScript without a builtin goes through a loop
 * body or a function entry (recursion, callbacks of `sort`/`map`, getters, generators), and
 * workerd refuses `eval`/`new Function`, so no code escapes instrumentation.
 *
 * The rewrite only adds text, never a newline, so line numbers in stack traces stay as written.
 * Loop bodies become blocks (`for (;;) x;` → `for (;;) { tick(); x; }`; labels and `continue`
 * keep their targets, the label stays on the loop); function bodies get the call after their
 * directive prologue (`"use strict"` keeps its meaning); an arrow's expression body becomes
 * `(tick(), expr)`. `Function.prototype.toString` shows the instrumented source.
 *
 * A module that does not parse is refused with the parser's message: workerd refuses the whole
 * isolate for a syntax error in any of its modules (checked), so nothing that ran before is lost.
 *
 * The same pass keeps `cloudflare:workers`' isolate-level exports (`abortIsolate`, `exports`) out
 * of reach: static imports and re-exports of it load the sandbox's shim instead, and every dynamic
 * `import()` specifier goes through the shim's check (workers-module-shim.ts).
 */
export function instrumentModule(name: string, source: string): Instrumented {
  for (const reserved of [LOOP_GUARD_TICK, LOOP_GUARD_BUDGET, IMPORT_SPECIFIER])
    if (source.includes(reserved))
      return { ok: false, kind: "unsupported", message: `${name}: the name ${reserved} is reserved by the sandbox` };
  let program: AnyNode;
  try {
    program = parse(source, { ecmaVersion: "latest", sourceType: "module", allowHashBang: true }) as unknown as AnyNode;
  } catch (error) {
    return { ok: false, kind: "syntax", message: `${name}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}` };
  }
  const depth = name.split("/").length - 1;
  const up = depth === 0 ? "./" : "../".repeat(depth);
  const shim = `${up}${WORKERS_SHIM_MODULE}`;
  let body: string;
  try {
    body = rewrite(source, program, shim);
  } catch (error) {
    // A nesting deep enough to exhaust the host's stack: refuse rather than run unguarded.
    return {
      ok: false,
      kind: "unsupported",
      message: `${name}: too deeply nested to instrument (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  const importLine =
    `import { ${LOOP_GUARD_BUDGET}, ${LOOP_GUARD_TICK} } from ${JSON.stringify(`${up}${LOOP_GUARD_MODULE}`)};` +
    `import { ${IMPORT_SPECIFIER} } from ${JSON.stringify(shim)};`;
  // A hashbang must stay the first thing in the file; the import goes right after it, same line.
  if (body.startsWith("#!")) {
    const end = body.indexOf("\n");
    return { ok: true, code: end < 0 ? `${body}\n${importLine}` : `${body.slice(0, end + 1)}${importLine}${body.slice(end + 1)}` };
  }
  return { ok: true, code: `${importLine}${body}` };
}

/** The node's source with its children rewritten and the guard calls added. */
function rewrite(source: string, node: AnyNode, shim: string): string {
  const children: { key: string; child: AnyNode }[] = [];
  for (const key of Object.keys(node)) {
    if (key === "type" || key === "start" || key === "end" || key === "loc" || key === "range") continue;
    const value = node[key];
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) children.push({ key, child: item });
    } else if (isNode(value)) children.push({ key, child: value });
  }
  // Shorthand properties and specifiers hold one range twice (`{ a = f }` as key and value):
  // take the widest child at a position and skip what was already written.
  children.sort((a, b) => a.child.start - b.child.start || b.child.end - a.child.end);
  let out = "";
  let cursor = node.start;
  for (const { key, child } of children) {
    if (child.start < cursor) continue;
    out += source.slice(cursor, child.start) + decorate(node, key, child, rewrite(source, child, shim), shim);
    cursor = child.end;
  }
  return out + source.slice(cursor, node.end);
}

/**
 * Adds the guard call to a loop's body or a function's body, and points module specifiers of
 * `cloudflare:workers` at the shim; anything else passes unchanged.
 */
function decorate(parent: AnyNode, key: string, child: AnyNode, text: string, shim: string): string {
  if (key === "source") {
    if (parent.type === "ImportExpression") return `${IMPORT_SPECIFIER}(${text}, ${JSON.stringify(shim)})`;
    if (MODULE_SOURCES.has(parent.type) && child.value === "cloudflare:workers") return JSON.stringify(shim);
    return text;
  }
  if (key !== "body") return text;
  if (LOOPS.has(parent.type)) {
    return child.type === "BlockStatement" ? `{${CALL};${text.slice(1)}` : `{${CALL};${text}}`;
  }
  if (!FUNCTIONS.has(parent.type)) return text;
  if (child.type !== "BlockStatement") return `(${CALL_EXPRESSION}, ${text})`;
  // After the directive prologue ("use strict" must stay the first statement to count). The
  // directives are string literals, so their offsets in the rewritten text are the source's.
  const statements = (child.body as AnyNode[]) ?? [];
  let at = 1;
  for (const statement of statements) {
    if (typeof statement.directive !== "string") break;
    at = statement.end - child.start;
  }
  return `${text.slice(0, at)}${at === 1 ? "" : ";"}${CALL};${text.slice(at)}`;
}

function isNode(value: unknown): value is AnyNode {
  return typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string";
}
