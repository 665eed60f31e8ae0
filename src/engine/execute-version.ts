import { appendEvents, type HarnessContext } from "../harness/harness-context.ts";
import { runWorkerSession } from "../harness/worker-session.ts";
import { lockHash as lockHashOf } from "../identity/compiler-lock.ts";
import type { DefinitionCapabilities } from "../identity/definition-snapshot.ts";
import { digestJson } from "../identity/digest.ts";
import { contentAddress } from "../identity/workflow-version.ts";
import { renderTemplate } from "../lwir/evaluate-template.ts";
import { terminalSteps } from "../lwir/graph.ts";
import type { LockedVersion } from "../lwir/register-workflow-version.ts";
import type { LwirStep } from "../lwir/types.ts";
import type { RegisteredWorkflow, RunEnvironment } from "./run-environment.ts";
import { RunFailure } from "./run-failure.ts";
import type { RunState } from "./run-state.ts";

/**
 * Executes a locked version's steps in dependency order and returns the terminal step's output.
 * Before each step the lock is verified against the version (fail closed on tampering); a step
 * with a recorded `StepSucceeded` is never run again.
 */
export async function executeVersion(args: {
  env: RunEnvironment;
  ctx: HarnessContext;
  workflow: RegisteredWorkflow;
  capabilities: DefinitionCapabilities;
  locked: LockedVersion;
  input: unknown;
  cycle: number;
  state: RunState;
}): Promise<unknown> {
  const { ctx, locked, cycle, state } = args;
  const steps = topologicalOrder(locked.version.lwir.steps);
  const outputs: Record<string, unknown> = {};
  for (const step of steps) {
    const stepPath = `c${cycle}/${step.id}`;
    if (state.stepOutputs.has(stepPath)) {
      outputs[step.id] = state.stepOutputs.get(stepPath);
      continue;
    }
    verifyLock(locked);
    if (!state.stepsStarted.has(`${stepPath}#1`)) await appendEvents(ctx, [{ type: "StepStarted", payload: { stepPath, attempt: 1 } }]);
    const output = await runStep({ ...args, step, stepPath, outputs });
    await appendEvents(ctx, [{ type: "StepSucceeded", payload: { stepPath, attempt: 1, output } }]);
    outputs[step.id] = output;
  }
  const [terminal] = terminalSteps(locked.version.lwir.steps);
  return outputs[terminal as string];
}

async function runStep(args: {
  env: RunEnvironment;
  ctx: HarnessContext;
  workflow: RegisteredWorkflow;
  capabilities: DefinitionCapabilities;
  locked: LockedVersion;
  input: unknown;
  cycle: number;
  step: LwirStep;
  stepPath: string;
  outputs: Record<string, unknown>;
}): Promise<unknown> {
  const { env, ctx, step, stepPath, capabilities, workflow } = args;
  if (step.uses !== "ai.generate") {
    const error = {
      name: "StepKindNotSupported",
      code: "step_kind_unsupported",
      message: `${step.uses} steps are not executed by this runtime yet`,
      retriable: false,
    };
    await appendEvents(ctx, [{ type: "StepFailed", payload: { stepPath, attempt: 1, error } }]);
    throw new RunFailure("step_failed", `Step ${stepPath}: ${error.message}`);
  }
  const slotIndex = capabilities.snapshot.modelSlots.findIndex((s) => s.id === step.with.model);
  const slot = capabilities.snapshot.modelSlots[slotIndex];
  const declared = workflow.definition.models[slotIndex];
  if (!slot || !declared)
    throw new RunFailure("capability_drift", `Step ${stepPath} uses model slot ${step.with.model}, which the definition no longer has`);
  const resolved = env.models.resolve({
    role: "worker",
    slotId: slot.id,
    providerId: slot.providerId,
    modelId: slot.modelId,
    declared: declared.model,
  });
  const scope = { input: args.input, steps: args.outputs };
  const prompt = String(renderTemplate(step.with.prompt, scope));
  const system = step.with.system === undefined ? undefined : String(renderTemplate(step.with.system, scope));
  const manifest = {
    harnessId: capabilities.snapshot.workerConfig.harnessId,
    role: "worker",
    stepPath,
    stepHash: digestJson(step),
    modelSlot: slot,
    skillsHash: capabilities.snapshot.workerConfig.skillsHash,
    workflowVersionHash: args.locked.version.hash,
    lockHash: args.locked.lockHash,
  };
  const outcome = await runWorkerSession(
    {
      sessionId: `worker:${stepPath}:a1`,
      stepPath,
      cycle: args.cycle,
      step,
      prompt,
      ...(system !== undefined ? { system } : {}),
      manifest,
      manifestHash: digestJson(manifest),
      model: resolved.model,
      slot: { id: slot.id, providerId: slot.providerId, modelId: slot.modelId, offline: resolved.offline },
    },
    ctx,
  );
  if (!outcome.ok) {
    await appendEvents(ctx, [
      {
        type: "StepFailed",
        payload: {
          stepPath,
          attempt: 1,
          error: { name: "StepFailed", code: outcome.causeCode, message: outcome.message, retriable: false },
        },
      },
    ]);
    throw new RunFailure("step_failed", outcome.message);
  }
  return outcome.output;
}

/** The lock must still describe this exact version; a changed byte anywhere fails closed. */
function verifyLock(locked: LockedVersion): void {
  const recomputed = contentAddress(locked.version.lwir);
  if (recomputed.hash !== locked.lock.lwirHash || recomputed.hash !== locked.version.hash || lockHashOf(locked.lock) !== locked.lockHash) {
    throw new RunFailure("capability_drift", `Version ${locked.version.id} no longer matches its lock`);
  }
}

/** Steps in an order where each comes after everything it needs; ties keep LWIR order. */
export function topologicalOrder<T extends { id: string; needs: readonly string[] }>(steps: readonly T[]): T[] {
  const done = new Set<string>();
  const out: T[] = [];
  while (out.length < steps.length) {
    const next = steps.find((s) => !done.has(s.id) && s.needs.every((n) => done.has(n)));
    if (!next) throw new Error("steps have a cycle (validateLwir should have refused them)");
    done.add(next.id);
    out.push(next);
  }
  return out;
}
