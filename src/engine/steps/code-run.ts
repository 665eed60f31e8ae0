import { harnessFor } from "../../harness/harness-registry.ts";
import { digestJson, digestText } from "../../json/digest.ts";
import { renderValue } from "../../lwir/evaluate-template.ts";
import type { CodeRunStep } from "../../lwir/types.ts";
import type { RunCodeErrorCode, RunCodeResult } from "../../ports/sandbox.ts";
import { schemaOfOutputMode } from "../../schema/normalize-output-mode.ts";
import { validateJson } from "../../schema/validate-json.ts";
import { RunFailure } from "../run-failure.ts";
import { StepAttemptError } from "../step-failure.ts";
import { resolveSlot } from "./resolve-slot.ts";
import type { StepAttempt } from "./step-context.ts";

type Failure = { code: RunCodeErrorCode | "output_invalid"; message: string; logs: readonly string[] };

/**
 * A `code.run` attempt through the Sandbox port: every file's sha256 is checked against the
 * locked LWIR first (a mismatch fails the run closed with `code_integrity`), the code runs under
 * the step's policy, and its output is validated against the step's schema. When it fails and the
 * step declares `onFailure.fixer`, fixer sessions repair the entrypoint (up to `maxAttempts`);
 * each fix is recorded in its session's `fixedSource`, so a replay reruns the recorded fix
 * without calling the fixer.
 */
export async function runCodeRun(step: CodeRunStep, a: StepAttempt): Promise<unknown> {
  for (const [name, file] of Object.entries(step.with.files)) {
    if (digestText(file.content) !== file.sha256) {
      throw new RunFailure("code_integrity", `Step ${a.stepPath}: ${name} no longer hashes to its locked sha256; refusing to run it`, {
        file: name,
      });
    }
  }
  const input = step.with.input === undefined ? a.input : renderValue(step.with.input, { input: a.input, steps: a.outputs, item: a.item });
  let files: Record<string, { content: string; sha256: string }> = { ...step.with.files };
  let result = await attempt(step, a, files, input);
  if (result.ok) return result.output;
  const fixer = step.onFailure?.fixer;
  if (!fixer) {
    const { code, message } = result.failure;
    throw new StepAttemptError(code, `Step ${a.stepPath}: ${message}`, code === "code_timeout" || code === "output_invalid");
  }
  for (let n = 1; n <= fixer.maxAttempts; n++) {
    const source = files[step.with.entrypoint]?.content ?? "";
    const fixedSource = await fix(step, a, n, source, result.failure, input);
    files = { ...files, [step.with.entrypoint]: { content: fixedSource, sha256: digestText(fixedSource) } };
    result = await attempt(step, a, files, input);
    if (result.ok) return result.output;
  }
  throw new StepAttemptError(
    "fixer_exhausted",
    `Step ${a.stepPath}: still failing after ${fixer.maxAttempts} fix attempt(s): ${result.failure.message}`,
    false,
  );
}

type Attempted = { ok: true; output: unknown } | { ok: false; failure: Failure };

async function attempt(
  step: CodeRunStep,
  a: StepAttempt,
  files: Record<string, { content: string; sha256: string }>,
  input: unknown,
): Promise<Attempted> {
  const result: RunCodeResult = await a.env.sandbox.runCode({
    files,
    entrypoint: step.with.entrypoint,
    input,
    policy: step.with.sandbox,
    networkHosts: a.locked.version.lwir.permissions.network,
    ...(step.with.sandbox.env === "allow" ? { env: codeEnv(a) } : {}),
    ...(step.with.limits ? { limits: step.with.limits } : {}),
  });
  if (!result.ok) return { ok: false, failure: { code: result.error.code, message: result.error.message, logs: result.logs } };
  const schema = schemaOfOutputMode(step.output);
  if (schema !== undefined) {
    const check = validateJson(schema, result.output, "step.output_invalid");
    if (!check.valid) {
      const message = `the output does not match the step schema: ${check.findings.map((f) => `${f.path}: ${f.message}`).join("; ")}`;
      return { ok: false, failure: { code: "output_invalid", message, logs: result.logs } };
    }
  }
  return { ok: true, output: result.output };
}

/**
 * What `sandbox.env: "allow"` passes: each secret the definition's `sandbox.env` names that this
 * version's `permissions.secrets` also permits, decrypted for the run (like a tool's secrets; the
 * log redacts their values wherever they appear). Nothing when the definition declares none.
 */
function codeEnv(a: StepAttempt): Record<string, string> {
  const permitted = new Set(a.locked.lock.capabilityManifest.secrets);
  const out: Record<string, string> = {};
  for (const name of a.capabilities.snapshot.sandboxEnv ?? []) {
    const value = a.ctx.secrets?.[name];
    if (permitted.has(name) && value !== undefined) out[name] = value;
  }
  return out;
}

async function fix(step: CodeRunStep, a: StepAttempt, n: number, source: string, failure: Failure, input: unknown): Promise<string> {
  const config = step.onFailure?.fixer as NonNullable<NonNullable<CodeRunStep["onFailure"]>["fixer"]>;
  const { slot, model, ref } = resolveSlot(a, config.model, "fixer");
  // The failure's message and logs come from code that may hold `sandbox.env` secrets: they reach
  // the fixer's prompt and sandbox only redacted (the same redactor live and on replay).
  const error = (a.ctx.redact ? a.ctx.redact.value(failure) : failure) as Failure;
  const manifest = {
    harnessId: a.capabilities.snapshot.workerConfig.harnessId,
    role: "fixer",
    stepPath: a.stepPath,
    stepHash: digestJson(step),
    modelSlot: slot,
    lockHash: a.locked.lockHash,
  };
  const outcome = await harnessFor(a.capabilities.snapshot.workerConfig.harnessId, "worker", a.capabilities.snapshot.id).fix(
    {
      sessionId: `fixer:${a.stepPath}:a${a.attempt}:f${n}`,
      stepPath: a.stepPath,
      cycle: a.cycle,
      task: {
        kind: "fix_step",
        stepPath: a.stepPath,
        entrypoint: step.with.entrypoint,
        source,
        error,
        input,
        outputSchema: schemaOfOutputMode(step.output) ?? null,
      },
      system: config.system,
      manifest,
      manifestHash: digestJson(manifest),
      model,
      slot: ref,
      sandbox: a.env.sandbox,
      memory: a.capabilities.snapshot.memoryConfig,
    },
    { ...a.ctx, signal: a.signal },
  );
  if (!outcome.ok || outcome.fixedSource === undefined)
    throw new StepAttemptError(
      "fixer_failed",
      `Step ${a.stepPath}: the fixer did not produce a fix (${outcome.ok ? "no source" : outcome.message})`,
      false,
    );
  return outcome.fixedSource;
}
