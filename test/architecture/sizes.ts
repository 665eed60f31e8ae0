import ts from "typescript";
import type { SourceFile } from "./source-tree.ts";

export const MAX_FILE_LINES = 400;
export const MAX_FUNCTION_LINES = 80;

/** A file or a function over its limit: `name` is the function's, or null for the whole file. */
export type Oversize = { readonly path: string; readonly name: string | null; readonly line: number; readonly lines: number };

/** Lines of a file as an editor counts them (a final newline opens no line). */
export function lineCount(text: string): number {
  if (text === "") return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

/**
 * Every function-like node with a body (declarations, methods, constructors, accessors, arrow
 * functions and function expressions) longer than `max` lines, from its first token to its last.
 * A function nested in another is measured on its own, and counts inside its parent as well.
 */
export function longFunctions(file: SourceFile, max: number = MAX_FUNCTION_LINES): Oversize[] {
  const kind = file.path.endsWith(".js") ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true, kind);
  const found: Oversize[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > max) found.push({ path: file.path, name: functionName(node, source), line: first + 1, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Files over the file limit and functions over the function limit. */
export function oversized(files: readonly SourceFile[]): Oversize[] {
  return files.flatMap((file) => {
    const lines = lineCount(file.text);
    const whole = lines > MAX_FILE_LINES ? [{ path: file.path, name: null, line: 1, lines }] : [];
    return [...whole, ...longFunctions(file)];
  });
}

/** `path` for a file, `path#name` for a function: the key an allowance is written against. */
export function keyOf(o: Oversize): string {
  return o.name === null ? o.path : `${o.path}#${o.name}`;
}

function functionName(node: ts.SignatureDeclaration, source: ts.SourceFile): string {
  if (node.name) return node.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return "constructor";
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name) {
    return parent.name.getText(source);
  }
  return `(anonymous at line ${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1})`;
}
