import { digestText, isDigest } from "../json/digest.ts";
import { childPath } from "../sdk/json-path.ts";
import type { FindingSink } from "./findings-sink.ts";
import { bounds, CODE_FILE, CODE_LIMITS, CODE_RUN_WITH, FIXER, fieldSummary, ON_FAILURE, SANDBOX_POLICY } from "./lwir-spec.ts";

const RUNNABLE = /\.(ts|js|mjs)$/;
const SETTINGS = ["deny", "allow"];

/**
 * Checks a code.run step's `with`: safe file names, every `sha256` equal to the digest of its
 * content, an entrypoint among the files, a complete sandbox policy, and limits in range.
 */
export function checkCodeRun(sink: FindingSink, w: Record<string, unknown>, path: string, networkPermitted: boolean): void {
  sink.closed(w, CODE_RUN_WITH, path);
  const rawFiles = sink.required(w, "files", path, '{ "<name>.ts": { "content": "<source>", "sha256": "sha256:<hex of the content>" } }');
  const files = rawFiles === undefined ? {} : sink.object(rawFiles, `${path}.files`);
  const names = files ? Object.keys(files) : [];
  if (files) for (const name of names) checkCodeFile(sink, files[name], name, childPath(`${path}.files`, name));
  const entrypoint = sink.string(w, "entrypoint", path, { hint: CODE_RUN_WITH.fields.entrypoint?.doc });
  if (entrypoint !== undefined) {
    if (!RUNNABLE.test(entrypoint))
      sink.error("code.unsupported_language", `${path}.entrypoint`, `entrypoint ${entrypoint} must end in .ts, .js or .mjs`);
    if (files && !names.includes(entrypoint))
      sink.error(
        "code.entrypoint_missing",
        `${path}.entrypoint`,
        `entrypoint ${entrypoint} is not one of the files (${names.join(", ") || "none"})`,
      );
  }
  checkSandboxPolicy(sink, w.sandbox, path, networkPermitted);
  if (w.limits !== undefined) {
    const limits = sink.object(w.limits, `${path}.limits`);
    if (limits) {
      sink.closed(limits, CODE_LIMITS, `${path}.limits`);
      sink.integer(limits.cpuMs, ...bounds(CODE_LIMITS, "cpuMs"), "code.invalid_limits", `${path}.limits.cpuMs`);
      sink.integer(limits.wallMs, ...bounds(CODE_LIMITS, "wallMs"), "code.invalid_limits", `${path}.limits.wallMs`);
    }
  }
}

/** One file of `with.files`: a safe relative name, string content, and the sha256 of that content. */
function checkCodeFile(sink: FindingSink, value: unknown, name: string, filePath: string): void {
  if (
    name === "" ||
    name.length > 128 ||
    name.startsWith("/") ||
    name.includes("\\") ||
    name.split("/").some((seg) => seg === ".." || seg === "." || seg === "")
  ) {
    sink.error(
      "code.invalid_file_name",
      filePath,
      `file name ${JSON.stringify(name)} must be a relative path without "..", ".", "\\" or empty segments`,
    );
  }
  const file = sink.object(value, filePath);
  if (!file) return;
  sink.closed(file, CODE_FILE, filePath);
  const content = file.content;
  const sha = file.sha256;
  if (typeof content !== "string")
    sink.error(
      content === undefined ? "field.required" : "field.invalid_type",
      `${filePath}.content`,
      `${filePath}.content must be a string`,
    );
  const actual = typeof content === "string" ? digestText(content) : undefined;
  const use = actual ? ` (for this content: "${actual}")` : "";
  if (sha === undefined) sink.missing(`${filePath}.sha256`, `${CODE_FILE.fields.sha256?.doc}${use}`);
  else if (!isDigest(sha))
    sink.error(
      "code.invalid_digest",
      `${filePath}.sha256`,
      `${filePath}.sha256 must be "sha256:" followed by 64 lowercase hex digits${use}`,
    );
  else if (actual !== undefined && actual !== sha)
    sink.error("code.file_digest_mismatch", `${filePath}.sha256`, `sha256 of ${name} is ${actual}, not ${sha}: set "sha256": "${actual}"`);
}

/** `with.sandbox`: required, an object, each of network/env/fs "deny" or "allow"; network only if permitted. */
function checkSandboxPolicy(sink: FindingSink, sandboxValue: unknown, path: string, networkPermitted: boolean): void {
  if (sandboxValue === undefined) {
    sink.error(
      "code.invalid_sandbox",
      `${path}.sandbox`,
      `${path}.sandbox is required: { "network": "deny", "env": "deny", "fs": "deny" } (each deny or allow)`,
    );
    return;
  }
  const isObject = typeof sandboxValue === "object" && sandboxValue !== null && !Array.isArray(sandboxValue);
  if (!isObject) {
    sink.error(
      "field.invalid_type",
      `${path}.sandbox`,
      `${path}.sandbox must be an object: { "network": "deny", "env": "deny", "fs": "deny" } (each deny or allow), not ${JSON.stringify(sandboxValue)}`,
    );
    return;
  }
  const sandbox = sandboxValue as Record<string, unknown>;
  sink.closed(sandbox, SANDBOX_POLICY, `${path}.sandbox`);
  for (const key of ["network", "env", "fs"]) {
    if (!SETTINGS.includes(sandbox[key] as string))
      sink.error("code.invalid_sandbox", `${path}.sandbox.${key}`, `${path}.sandbox.${key} must be "deny" or "allow"`);
  }
  if (sandbox.network === "allow" && !networkPermitted) sink.error("code.network_not_permitted", `${path}.sandbox.network`);
}

/** Checks `onFailure.fixer`: an allowed model, a bounded attempt count, a system prompt. */
export function checkFixer(sink: FindingSink, onFailure: unknown, path: string, kind: unknown, models: ReadonlySet<string>): void {
  const config = sink.object(onFailure, path);
  if (!config) return;
  sink.closed(config, ON_FAILURE, path);
  if (config.fixer === undefined) return;
  const fixerPath = `${path}.fixer`;
  if (kind !== "code.run") {
    sink.error("fixer.wrong_step_kind", fixerPath, `onFailure.fixer is only allowed on code.run steps, not ${String(kind)}`);
    return;
  }
  const fixer = sink.object(config.fixer, fixerPath);
  if (!fixer) return;
  sink.closed(fixer, FIXER, fixerPath);
  const model = sink.string(fixer, "model", fixerPath, { hint: `{ ${fieldSummary(FIXER)} }: ${FIXER.fields.model?.doc}` });
  if (model !== undefined && !models.has(model))
    sink.error("fixer.model_not_permitted", `${fixerPath}.model`, `fixer model "${model}" is not in permissions.models`);
  if (fixer.maxAttempts === undefined) sink.missing(`${fixerPath}.maxAttempts`, FIXER.fields.maxAttempts?.doc);
  else sink.integer(fixer.maxAttempts, ...bounds(FIXER, "maxAttempts"), "fixer.invalid_max_attempts", `${fixerPath}.maxAttempts`);
  if (typeof fixer.system !== "string" || fixer.system.trim() === "") sink.error("fixer.missing_system", `${fixerPath}.system`);
}
