/** Static import declarations at the start of a line (not `import(` or `import.meta`). */
const STATIC_IMPORT =
  /^[ \t]*import\s*(?:type\s+)?(?:[\w$]+\s*,?\s*)?(?:\{[^}]*\}|\*\s*as\s+[\w$]+)?\s*(?:from\s*)?(["'])[^"'\n]+\1(?:\s*with\s*\{[^}]*\})?[ \t]*;?/gm;
const EXPORT_LIST = /^[ \t]*export\s*(?:\*(?:\s*as\s+[\w$]+)?|\{[^}]*\})\s*(?:from\s*(["'])[^"'\n]+\1)?[ \t]*;?/gm;
const EXPORT_DEFAULT = /^([ \t]*)export\s+default\s+/gm;
const EXPORT_DECLARATION = /^([ \t]*)export\s+(?=(?:async\s+)?function\b|const\b|let\b|var\b|class\b)/gm;

/**
 * Turns the main script of a `node` run into a module whose body is one exported async function.
 * Workerd refuses timers, random values and I/O while a module is being evaluated ("global
 * scope"), even a module imported from inside a request, so the script must run when the runner
 * calls it, not when it is imported. Static imports stay at the top (their modules are evaluated at
 * import, which suits declarations); `export` keywords are dropped (a script's exports have no
 * reader). With `print`, the script is an expression whose value the function returns (`node -p`).
 */
export function wrapMainScript(source: string, print: boolean): string {
  if (print) return `export default async function __little_main() {\nreturn (\n${source}\n);\n}\n`;
  const imports: string[] = [];
  const body = source
    .replace(STATIC_IMPORT, (statement) => {
      imports.push(statement.trim());
      return statement.replace(/[^\n]/g, "");
    })
    .replace(EXPORT_LIST, "")
    .replace(EXPORT_DEFAULT, "$1const __little_default = ")
    .replace(EXPORT_DECLARATION, "$1");
  return `${imports.join("\n")}\nexport default async function __little_main() {\n${body}\n}\n`;
}
