import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The package's version, from its package.json: two levels up from src/cli/ in the repository,
 * three from dist/src/cli/ in the published package.
 */
export async function packageVersion(): Promise<string> {
  for (const up of ["../../package.json", "../../../package.json"]) {
    try {
      const pkg: unknown = JSON.parse(await readFile(join(dirname(fileURLToPath(import.meta.url)), up), "utf8"));
      if (typeof pkg === "object" && pkg !== null && "name" in pkg && pkg.name === "little-workflow" && "version" in pkg) {
        return String(pkg.version);
      }
    } catch {
      // not this level: try the next
    }
  }
  return "unknown";
}
