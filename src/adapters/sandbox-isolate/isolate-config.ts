/** The compatibility date of every isolate the sandbox loads. */
export const ISOLATE_COMPATIBILITY_DATE = "2026-11-01";

/**
 * Compatibility flags for an isolate. From this compatibility date on, workerd turns `nodejs_compat`
 * on by default (checked: `node:fs`, `node:child_process`, `node:net` and `process` all load with no
 * flags), so denying the filesystem has to switch it off explicitly, v2 included.
 */
export function isolateCompatibilityFlags(nodeBuiltins: boolean): string[] {
  return nodeBuiltins ? ["nodejs_compat"] : ["no_nodejs_compat", "no_nodejs_compat_v2"];
}
