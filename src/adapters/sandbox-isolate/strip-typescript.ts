import { transform } from "sucrase";

/** TypeScript a file may not use: sucrase silently drops a non-`declare` namespace (TOOLCHAIN.md). */
const NAMESPACE = /^\s*(export\s+)?namespace\s+[A-Za-z_$]/m;

/**
 * Strips TypeScript to JavaScript with sucrase (it runs inside workerd; ~1 ms per 50-line file).
 * Returns an error message instead of code for what it cannot strip faithfully.
 */
export function stripTypeScript(name: string, source: string): { ok: true; code: string } | { ok: false; message: string } {
  if (!name.endsWith(".ts")) return { ok: true, code: source };
  if (NAMESPACE.test(source)) return { ok: false, message: `${name}: TypeScript namespaces are not supported in code.run; use modules` };
  try {
    return { ok: true, code: transform(source, { transforms: ["typescript"], disableESTransforms: true, filePath: name }).code };
  } catch (error) {
    return { ok: false, message: `${name}: ${error instanceof Error ? error.message : String(error)}` };
  }
}
