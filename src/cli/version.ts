import { packageManifest } from "./package-root.ts";

/** The package's version, from the package.json {@link packageManifest} finds; `unknown` when there is none. */
export function packageVersion(): string {
  try {
    return packageManifest().version;
  } catch {
    return "unknown";
  }
}
