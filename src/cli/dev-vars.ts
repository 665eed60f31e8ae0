import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The `KEY=value` lines of a project's `.dev.vars` (what `wrangler dev` loads), so the CLI run in
 * the project finds a `LITTLE_URL` written there for a dev server on another port. Missing or
 * unreadable: no values.
 */
export function readDevVars(dir: string = process.cwd()): Readonly<Record<string, string>> {
  const path = join(dir, ".dev.vars");
  if (!existsSync(path)) return {};
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return {};
  }
  const vars: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const match = /^\s*([A-Z][A-Z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (match) vars[match[1] as string] = (match[2] as string).replace(/^"(.*)"$/, "$1");
  }
  return vars;
}
