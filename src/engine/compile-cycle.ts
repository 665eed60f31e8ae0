import { appendEvents, type HarnessContext } from "../harness/harness-context.ts";
import { harnessFor } from "../harness/harness-registry.ts";
import type { OuterLoopContext } from "../harness/planner-prompt.ts";
import type { DefinitionCapabilities } from "../identity/definition-snapshot.ts";
import { manifestHash, type PlannerManifest, plannerManifest } from "../identity/planner-manifest.ts";
import { type Digest, digestJson } from "../json/digest.ts";
import { compileAndLock, type LockedVersion } from "../lwir/register-workflow-version.ts";
import type { NewRunEvent, RunEventPayloads } from "../ports/run-events.ts";
import { LittleError } from "../sdk/errors/little-error.ts";
import { lockedOnce } from "./pinned-locks.ts";
import type { RegisteredWorkflow, RunEnvironment } from "./run-environment.ts";
import { RunFailure } from "./run-failure.ts";
import { assertLwirFits } from "./run-quotas.ts";
import { writtenOnce } from "./written-once.ts";

/**
 * Compiles one cycle (compile stages 4–8, docs/architecture.md): planner manifest → planner
 * session (drift-checked and replayed by the harness) → validate + bind + register + lock →
 * `WorkflowVersionRegistered` → `RunStarted`. On resume, a cycle already registered is re-derived from the session's recorded
 * LWIR and must reproduce the same version and lock, or the run fails closed.
 */
export async function compileCycle(args: {
  env: RunEnvironment;
  ctx: HarnessContext;
  workflow: RegisteredWorkflow;
  capabilities: DefinitionCapabilities;
  input: unknown;
  cycle: number;
  priorCycles: readonly RunEventPayloads["OuterLoopCycleCompleted"][];
  registered: RunEventPayloads["WorkflowVersionRegistered"] | undefined;
  runStarted: boolean;
  /** LWIR given with the run (`POST /v1/lwir/runs`): registered and run as is, no planner. */
  pinnedLwir?: unknown;
  /**
   * Record the version's step count in `RunStarted` (the run's progress total). A versioned engine
   * behaviour: only for runs whose request records a schema normalizer, so a log from before that
   * (the saved histories are recorded so) replays to the very events it holds.
   */
  recordSteps?: boolean;
}): Promise<LockedVersion> {
  const { env, ctx, capabilities, cycle } = args;
  const { locked, manifest } =
    args.pinnedLwir !== undefined ? { locked: lockPinned(args.pinnedLwir, capabilities), manifest: null } : await planAndLock(args);
  const at = env.clock.now();
  if (args.registered) {
    if (args.registered.versionId !== locked.version.id || args.registered.lockHash !== locked.lockHash) {
      throw new RunFailure(
        "capability_drift",
        `Cycle ${cycle} was registered as ${args.registered.versionId} (lock ${args.registered.lockHash}); recompiling now gives ${locked.version.id} (lock ${locked.lockHash})`,
      );
    }
  } else {
    // Before the write: a document over the limit would fail in D1 (row size) after five retries.
    assertLwirFits(locked.version.canonicalJson, env.quotas);
    const registration = [locked.version.hash, locked.lockHash, manifest?.hash ?? "", capabilities.definitionHash].join(" ");
    await writtenOnce(env.versions, `registration:${registration}`, at, () =>
      env.versions.registerVersion({
        version: locked.version,
        lock: locked.lock,
        lockHash: locked.lockHash,
        ...(manifest ? { manifest: { ...manifest, definitionHash: capabilities.definitionHash } } : {}),
        at,
      }),
    );
    const warnings = locked.findings.filter((f) => f.severity === "warning");
    // Nothing with a side effect comes between them: the registration and the start share one append (one sync).
    await appendEvents(ctx, [
      {
        type: "WorkflowVersionRegistered",
        payload: {
          versionId: locked.version.id,
          versionHash: locked.version.hash,
          lockHash: locked.lockHash,
          definitionHash: capabilities.definitionHash,
          warnings,
        },
      },
      ...(args.runStarted ? [] : [runStartedEvent(locked, cycle, args.recordSteps === true)]),
    ]);
    return locked;
  }
  if (!args.runStarted) await appendEvents(ctx, [runStartedEvent(locked, cycle, args.recordSteps === true)]);
  return locked;
}

function runStartedEvent(locked: LockedVersion, cycle: number, recordSteps: boolean): NewRunEvent {
  const steps = recordSteps ? { steps: locked.version.lwir.steps.length } : {};
  return { type: "RunStarted", payload: { versionId: locked.version.id, lockHash: locked.lockHash, cycle, ...steps } };
}

function outerContext(
  maxCycles: number,
  cycle: number,
  prior: readonly RunEventPayloads["OuterLoopCycleCompleted"][],
): OuterLoopContext | undefined {
  if (maxCycles <= 1) return undefined;
  return {
    cycleNumber: cycle,
    maxCycles,
    isFinalCycle: cycle >= maxCycles,
    priorCycles: prior.map((c) => ({
      cycleNumber: c.cycleNumber,
      status: c.status,
      output: c.output,
      ...(c.summary !== undefined ? { summary: c.summary } : {}),
      ...(c.failure !== undefined ? { failure: c.failure } : {}),
    })),
  };
}

type CycleArgs = Parameters<typeof compileCycle>[0];

/** The planner session for this cycle, then validate + bind + lock its accepted LWIR. */
async function planAndLock(args: CycleArgs): Promise<{ locked: LockedVersion; manifest: { manifest: PlannerManifest; hash: Digest } }> {
  const { env, ctx, workflow, capabilities, cycle } = args;
  const snapshot = capabilities.snapshot;
  const outerLoopContext = outerContext(snapshot.maxOuterCycles, cycle, args.priorCycles);
  // Seed: the hash is present for re-plans after supervise, so cycle 1 keeps the plain manifest.
  const priorHash = outerLoopContext && outerLoopContext.priorCycles.length > 0 ? digestJson(outerLoopContext.priorCycles) : undefined;
  const manifest = plannerManifest(snapshot, capabilities.definitionHash, priorHash);
  const hash = manifestHash(manifest);
  const planner = workflow.definition.planner;
  const plannerSlot = {
    slotId: snapshot.plannerConfig.modelSlotId,
    providerId: snapshot.plannerConfig.providerId,
    modelId: snapshot.plannerConfig.modelId,
  };
  const resolved = env.models.resolve({ role: "planner", ...plannerSlot, declared: planner.model });
  const outcome = await harnessFor(snapshot.plannerConfig.harnessId, "planner", snapshot.id).plan(
    {
      sessionId: `planner:c${cycle}`,
      cycle,
      manifest,
      manifestHash: hash,
      capabilities,
      input: args.input,
      ...(outerLoopContext ? { outerLoopContext } : {}),
      system: planner.system,
      skills: planner.skills,
      model: resolved.model,
      slot: {
        id: plannerSlot.slotId,
        providerId: plannerSlot.providerId,
        modelId: plannerSlot.modelId,
        offline: resolved.offline,
        ...(planner.pricing ? { pricing: planner.pricing } : {}),
      },
      sandbox: env.sandbox,
    },
    ctx,
  );
  if (!outcome.ok) throw new RunFailure(outcome.causeCode, outcome.message);
  const lwir = (outcome.output as { lwir?: unknown }).lwir;
  try {
    return { locked: compileAndLock(lwir, capabilities), manifest: { manifest, hash } };
  } catch (error) {
    // On resume the planner's LWIR is the recorded one: if it no longer binds, the capabilities
    // it was compiled against changed under the run (drift), not the planner.
    if (LittleError.is(error))
      throw new RunFailure(
        args.registered ? "capability_drift" : "planner_validation_exhausted",
        `The planner's accepted LWIR no longer validates: ${error.message}`,
      );
    throw error;
  }
}

function lockPinned(lwir: unknown, capabilities: DefinitionCapabilities): LockedVersion {
  try {
    return lockedOnce(lwir, capabilities);
  } catch (error) {
    if (LittleError.is(error))
      throw new RunFailure("lwir_invalid", error.message, { findings: (error as { findings?: unknown }).findings });
    throw error;
  }
}
