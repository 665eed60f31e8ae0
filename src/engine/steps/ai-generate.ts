import { NoObjectGeneratedError } from "ai";
import { harnessFor } from "../../harness/harness-registry.ts";
import type { SessionOutcome } from "../../harness/run-session.ts";
import { digestJson } from "../../json/digest.ts";
import { renderTemplate } from "../../lwir/evaluate-template.ts";
import type { AiGenerateStep } from "../../lwir/types.ts";
import { StepAttemptError } from "../step-failure.ts";
import { resolveSlot } from "./resolve-slot.ts";
import type { StepAttempt } from "./step-context.ts";

/**
 * An `ai.generate` attempt: a worker harness session (task kind `execute_step`) with its own
 * manifest, drift-checked on resume; the output is validated against the step's schema, and an
 * invalid one is a retriable failure (the retry policy bounds the repairs).
 */
export async function runAiGenerate(step: AiGenerateStep, a: StepAttempt): Promise<unknown> {
  const { capabilities } = a;
  const { slot, model, ref } = resolveSlot(a, step.with.model, "worker");
  const scope = { input: a.input, steps: a.outputs, item: a.item };
  const rendered = String(renderTemplate(step.with.prompt, scope));
  // A repair: the model sees why its previous answer was refused.
  const prompt =
    a.previousError?.code === "output_invalid"
      ? `${rendered}\n\nYour previous answer was refused: ${a.previousError.message}\nAnswer again, matching the required output exactly.`
      : rendered;
  const system = step.with.system === undefined ? undefined : String(renderTemplate(step.with.system, scope));
  const manifest = {
    harnessId: capabilities.snapshot.workerConfig.harnessId,
    role: "worker",
    stepPath: a.stepPath,
    stepHash: digestJson(step),
    modelSlot: slot,
    skillsHash: capabilities.snapshot.workerConfig.skillsHash,
    workflowVersionHash: a.locked.version.hash,
    lockHash: a.locked.lockHash,
  };
  let outcome: SessionOutcome;
  try {
    outcome = await harnessFor(capabilities.snapshot.workerConfig.harnessId, "worker", capabilities.snapshot.id).work(
      {
        sessionId: `worker:${a.stepPath}:a${a.attempt}`,
        stepPath: a.stepPath,
        cycle: a.cycle,
        step,
        prompt,
        ...(system !== undefined ? { system } : {}),
        manifest,
        manifestHash: digestJson(manifest),
        model,
        slot: ref,
        skills: a.workflow.definition.worker.skills,
        sandbox: a.env.sandbox,
      },
      { ...a.ctx, signal: a.signal },
    );
  } catch (error) {
    // The model's text was not parseable as the requested output: a repairable answer, not an outage.
    if (NoObjectGeneratedError.isInstance(error))
      throw new StepAttemptError("output_invalid", `the model's answer is not valid ${step.output.mode} output: ${error.message}`, true);
    throw error;
  }

  if (!outcome.ok)
    throw new StepAttemptError(outcome.causeCode === "step_failed" ? "output_invalid" : outcome.causeCode, outcome.message, true);
  return outcome.output;
}
