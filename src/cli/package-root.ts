import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** What `little init` reads from the package it runs from. */
export type PackageManifest = {
  readonly root: string;
  readonly version: string;
  readonly dependencies: Readonly<Record<string, string>>;
  readonly devDependencies: Readonly<Record<string, string>>;
};

/**
 * The little-workflow package this CLI belongs to: two levels up from src/cli/ in the repository,
 * three from dist/src/cli/ in the installed package.
 */
export function packageManifest(): PackageManifest {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const up of ["../..", "../../.."]) {
    const root = join(here, up);
    const file = join(root, "package.json");
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, "utf8")) as Partial<PackageManifest> & { name?: string };
    if (pkg.name !== "little-workflow") continue;
    return {
      root,
      version: String(pkg.version),
      dependencies: pkg.dependencies ?? {},
      devDependencies: pkg.devDependencies ?? {},
    };
  }
  throw new Error("little: cannot find the little-workflow package this command belongs to");
}
