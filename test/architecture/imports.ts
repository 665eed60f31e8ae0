import { posix } from "node:path";
import ts from "typescript";
import type { SourceFile } from "./source-tree.ts";

/**
 * One module a file names: `value` for a static import or re-export that brings code, `type` for
 * `import type` / `export type` (or every named binding marked `type`) and `import("x").T` in a
 * type, `dynamic` for an `import()` call.
 */
export type ImportKind = "value" | "type" | "dynamic";

export type ImportRef = {
  readonly from: string;
  /** The specifier as written. */
  readonly specifier: string;
  /** For a relative specifier, the path it names from the repository root; else null (a package). */
  readonly target: string | null;
  readonly kind: ImportKind;
  readonly line: number;
};

/** Every import of a file, read by the TypeScript parser (comments and strings never count). */
export function importsOf(file: SourceFile): ImportRef[] {
  const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true, scriptKindOf(file.path));
  const refs: ImportRef[] = [];
  const add = (literal: ts.Node | undefined, kind: ImportKind) => {
    if (!literal || !ts.isStringLiteralLike(literal)) return;
    const specifier = literal.text;
    const target = specifier.startsWith(".") ? posix.normalize(posix.join(posix.dirname(file.path), specifier)) : null;
    const line = source.getLineAndCharacterOfPosition(literal.getStart(source)).line + 1;
    refs.push({ from: file.path, specifier, target, kind, line });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, isTypeOnlyImport(node) ? "type" : "value");
    else if (ts.isExportDeclaration(node)) add(node.moduleSpecifier, isTypeOnlyExport(node) ? "type" : "value");
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal, "type");
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0], "dynamic");
    ts.forEachChild(node, visit);
  };
  visit(source);
  return refs;
}

function scriptKindOf(path: string): ts.ScriptKind {
  return path.endsWith(".js") ? ts.ScriptKind.JS : ts.ScriptKind.TS;
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // `import "x"` runs x
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return !!bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

function isTypeOnlyExport(node: ts.ExportDeclaration): boolean {
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return !!clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
}
