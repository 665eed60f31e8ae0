import { appendEvents, type HarnessContext, SliceYieldSignal } from "../harness/harness-context.ts";
import { checkHarnesses } from "../harness/harness-registry.ts";
import { Journal } from "../harness/journal.ts";
import { secretRedactor } from "../harness/redact-secrets.ts";
import type { DefinitionCapabilities } from "../identity/definition-snapshot.ts";
import { LEGACY_LWIR_VALIDATOR_ID } from "../identity/lwir-validator-id.ts";
import { encodeTagged } from "../identity/tagged-json.ts";
import { contentAddress } from "../identity/workflow-version.ts";
import { isDigest } from "../json/digest.ts";
import type { RunStatus } from "../ports/run-events.ts";
import type { WaitReason } from "../ports/run-status.ts";
import { LEGACY_SCHEMA_NORMALIZER, type SchemaNormalizerId } from "../schema/normalize-schema.ts";
import { validateJson } from "../schema/validate-json.ts";
import { LittleError } from "../sdk/errors/little-error.ts";
import { RunTerminatedError } from "../sdk/errors/run-terminated-error.ts";
import { approvalRevoked } from "./approval-revoked.ts";
import { recordable } from "./blob-refs.ts";
import { cancelChildren } from "./children/child-messages.ts";
import { definitionCapabilities } from "./definition-capabilities.ts";
import { prefetchMemo } from "./memo/reuse-step.ts";
import { runOuterLoop } from "./outer-loop.ts";
import { runDeadlineOf } from "./run-deadline.ts";
import type { RegisteredWorkflow, RunEnvironment, SliceEnvironment } from "./run-environment.ts";
import { RunFailure } from "./run-failure.ts";
import { indexFieldsOf, indexRun, latestRegistration } from "./run-host/index-run.ts";
import { writeBehindIndex } from "./run-host/write-behind-index.ts";
import { withRunModelOverrides } from "./run-model-overrides.ts";
import { RunQuotaMeter } from "./run-quotas.ts";
import { SECTION_WAITS } from "./run-section.ts";
import { deliverableSignal, deriveRunState, earliestWaitDeadline, type RunState, SliceState } from "./run-state.ts";
import { toRunFailure } from "./to-run-failure.ts";
import { writtenOnce } from "./written-once.ts";

/** How a drive slice ended: the run's status, and whether more slices are needed. */
export type DriveResult = {
  readonly status: RunStatus;
  readonly yielded: boolean;
  readonly wakeAt?: number;
  /** Nothing but a message to the run (a child's end) wakes it: the host sets no alarm. */
  readonly untilMessage?: boolean;
  /** A section ran every queued occurrence: nothing to do until the next trigger. */
  readonly waiting?: boolean;
  /** Why the run waits when the slice ended with it `waiting` (the fold's reason). */
  readonly waitReason?: WaitReason;
  /** The run is paused: only its resume drives it again (the host sets no alarm). */
  readonly paused?: boolean;
};

const PAUSED: DriveResult = { status: "paused", yielded: true, untilMessage: true, paused: true };

/**
 * One slice of the drive loop: replay the run's log to where it stands, then go on until the run
 * ends or the slice's time is up. Pure over the environment's ports, so it runs the same in a
 * Durable Object alarm and in plain Node. Every failure becomes exactly one `RunFailed`.
 */
export async function driveRun(given: RunEnvironment): Promise<DriveResult> {
  // The run's own index row is written behind the slice and flushed before it answers (write-behind-index.ts).
  const runs = writeBehindIndex(given.runs, given.runId);
  let result: DriveResult;
  try {
    result = await driveOver({ ...given, runs });
  } catch (error) {
    await runs.flush().catch(() => {});
    throw error;
  }
  await runs.flush();
  return result;
}

async function driveOver(given: RunEnvironment): Promise<DriveResult> {
  const events = await given.log.all();
  const state = deriveRunState(events);
  if (state.terminal) return { status: state.status, yielded: false };
  // Paused: nothing starts (an alarm armed before the pause, a signal or a decision that arrived
  // while paused lands here); the resume arms the alarm again.
  if (state.paused) return PAUSED;
  // Every append of this slice goes through the meter (tokens and log bytes per run).
  const quota = new RunQuotaMeter(given.quotas, events);
  // The run's state lives for the slice: its own appends fold into it, nothing re-reads the log.
  const run = new SliceState(given.log, state, events.at(-1)?.seq ?? 0);
  const env: SliceEnvironment = { ...given, log: run.track(quota.meter(given.log)), run };
  if (!state.request) throw new Error(`run ${env.runId} has no RunRequested event`);
  prefetchMemo(env, state);
  // The run's deadline derives from the log (RunRequested.at) and the definition, so it holds across resumes.
  // A section's run timeout bounds only its compile (run-deadline.ts).
  const { timeoutMs: runTimeoutMs, deadline: runDeadline, signal: runTimeout } = runDeadlineOf(env, state);
  const signals = [env.signal, runTimeout, quota.signal].filter((s): s is AbortSignal => s !== undefined);
  const secrets = await revealSecrets(env, state.request);
  const redact = "values" in secrets ? secretRedactor(secrets.values) : undefined;
  const ctx: HarnessContext = {
    runId: env.runId,
    log: env.log,
    journal: new Journal(events),
    clock: env.clock,
    deadline: env.clock.now() + env.sliceMs,
    sleep: env.sleep,
    ...(env.modelTimeoutMs !== undefined ? { modelTimeoutMs: env.modelTimeoutMs } : {}),
    ...(signals.length > 0 ? { signal: AbortSignal.any(signals) } : {}),
    ...(env.pause ? { pause: env.pause } : {}),
    ...(redact ? { redact } : {}),
    ...("values" in secrets ? { secrets: secrets.values } : {}),
    ...(env.liveOutput ? { liveOutput: env.liveOutput } : {}),
  };
  const timedOut = () => new RunFailure("run_timeout", `The run passed its ${runTimeoutMs} ms timeout`);
  try {
    if (runDeadline !== undefined && env.clock.now() >= runDeadline) throw timedOut();
    // Fail closed before any step: a definition that binds secrets runs only with all of them.
    if ("failure" in secrets) throw secrets.failure;
    const revoked = await approvalRevoked(env, state.request);
    if (revoked) throw revoked;
    // Resumed over a quota (it was exceeded before a crash): fail before any call.
    if (quota.exceeded) throw quota.exceeded;
    const output = await drive(env, ctx, state);
    if (output === SECTION_WAITS) {
      // Over a quota on the last call: the run fails now rather than wait (a cancel wins).
      if (quota.exceeded && !env.signal?.aborted) return finish(env, ctx, state, { type: "RunFailed", failure: quota.exceeded });
      const idle = await run.current();
      await indexRun(env, state, idle.paused ? "paused" : "waiting", { ...indexFieldsOf(idle), waitReason: "trigger" });
      return { status: "waiting", yielded: false, waiting: true, waitReason: "trigger" };
    }
    // Over a quota on the last call: the run may not exceed it, even when it finished.
    if (quota.exceeded) throw quota.exceeded;
    return await finish(env, ctx, state, { type: "RunCompleted", output });
  } catch (error) {
    // A quota ended the slice (its abort surfaces as whatever the call in flight threw); a cancel wins.
    if (quota.exceeded && !(error instanceof RunTerminatedError) && !env.signal?.aborted)
      return finish(env, ctx, state, { type: "RunFailed", failure: quota.exceeded });
    if (error instanceof SliceYieldSignal) return yielded(env, state, error.wakeAt, error.untilMessage, runDeadline);
    // A cancel appended RunCancelled (and aborted the calls in flight): the slice just stops.
    if (error instanceof RunTerminatedError || env.signal?.aborted) return { status: (await run.current()).status, yielded: false };
    const failure =
      runTimeout?.aborted && !(error instanceof RunFailure && error.causeCode !== "step_failed") ? timedOut() : toRunFailure(error);
    if (!failure) throw error;
    return finish(env, ctx, state, { type: "RunFailed", failure });
  }
}

async function drive(env: SliceEnvironment, ctx: HarnessContext, state: RunState): Promise<unknown> {
  const request = state.request as NonNullable<RunState["request"]>;
  const registered = env.workflows.get(request.workflowId);
  if (!registered) throw new RunFailure("workflow_not_found", `No workflow "${request.workflowId}" is registered in this Worker`);
  // A fork's model changes are part of this run's definition (and its hash).
  const workflow = withRunModelOverrides(registered, request.modelOverrides);
  // The normalizer the run started with, for life: a run from before `@2` keeps its hashes.
  const live = await capabilitiesOf(workflow, request.schemaNormalizer ?? LEGACY_SCHEMA_NORMALIZER);
  // And the validator it started with: a run from before `@2` re-derives its lock without the type pass.
  const capabilities = { ...live, lwirValidator: request.lwirValidator ?? LEGACY_LWIR_VALIDATOR_ID };
  const inputCheck = validateJson(capabilities.inputSchema, request.input, "input.invalid");
  if (!inputCheck.valid)
    throw new RunFailure("input_schema_error", "The run input does not match the workflow's input schema", {
      findings: inputCheck.findings,
    });
  // Fail closed: the start was checked against an approved hash, and the code now running must still hash to it.
  if (capabilities.snapshot.approval === "required" && request.approvedDefinitionHash !== capabilities.definitionHash)
    throw new RunFailure(
      "definition_not_approved",
      `Workflow "${request.workflowId}" requires an approved definition; the live definition ${capabilities.definitionHash} is not the approved one (${request.approvedDefinitionHash ?? "none"})`,
    );
  await writtenOnce(env.versions, `definition:${capabilities.definitionHash}`, env.clock.now(), () =>
    env.versions.putDefinition(capabilities.snapshot, capabilities.definitionHash, env.clock.now()),
  );
  const pinned = request.pinnedVersionHash ?? request.pinnedVersionId;
  const givenLwir = request.lwir ?? (pinned !== undefined ? await pinnedLwir(env, pinned) : undefined);
  // `compiling` is a planner at work: a run given its plan (LWIR, a pinned version) goes from `pending` to `running`.
  // A planner at work, not a resumed run whose cycle is compiled already (it would flap `running` → `compiling` on every wake).
  if (givenLwir === undefined && !state.registered.has(state.cycle))
    await indexRun(env, state, "compiling", { definitionHash: capabilities.definitionHash });
  return runOuterLoop({ env, ctx, workflow, capabilities, state, ...(givenLwir !== undefined ? { givenLwir } : {}) });
}

/** The secrets the definition binds, decrypted for this slice, or why they cannot be. */
async function revealSecrets(
  env: RunEnvironment,
  request: NonNullable<RunState["request"]>,
): Promise<{ values: Record<string, string> } | { failure: RunFailure }> {
  const names = env.workflows.get(request.workflowId)?.definition.secrets ?? [];
  if (names.length === 0) return { values: {} };
  if (!env.secrets.keyConfigured)
    return {
      failure: new RunFailure("secrets_unavailable", "The workflow binds secrets and no secrets key is configured (LITTLE_SECRETS_KEY)"),
    };
  try {
    return { values: await env.secrets.reveal(request.tenant, names) };
  } catch (error) {
    if (LittleError.is(error)) return { failure: new RunFailure("secrets_unavailable", error.message) };
    throw error;
  }
}

/**
 * A pinned version's LWIR, looked up by its full hash and re-addressed, so only the exact document
 * pinned runs: a stored version changed since, or another document sharing its 64-bit `wfver_`
 * id, fails closed. A log from before pins carried the hash names only the id: looked up by id
 * (unambiguous, colliding ids are refused on write) and checked against it.
 */
async function pinnedLwir(env: RunEnvironment, pinned: string): Promise<unknown> {
  const byHash = isDigest(pinned);
  const version = byHash ? await env.versions.getVersionByHash(pinned) : await env.versions.getVersionById(pinned);
  if (!version) throw new RunFailure("pinned_version_invalid", `The pinned version ${pinned} is not in the version store`);
  const address = contentAddress(version.lwir);
  if ((byHash ? address.hash : address.id) !== pinned || address.hash !== version.hash)
    throw new RunFailure("pinned_version_invalid", `The stored version ${pinned} no longer hashes to it (now ${address.hash})`);
  return version.lwir;
}

async function capabilitiesOf(workflow: RegisteredWorkflow, normalizer: SchemaNormalizerId): Promise<DefinitionCapabilities> {
  try {
    const capabilities = await definitionCapabilities(workflow, normalizer);
    // Both harnesses resolve before any model call (an unknown worker harness would fail only after the planner ran).
    const { plannerConfig, workerConfig } = capabilities.snapshot;
    checkHarnesses(capabilities.snapshot.id, { planner: plannerConfig.harnessId, worker: workerConfig.harnessId });
    return capabilities;
  } catch (error) {
    if (LittleError.is(error)) {
      throw new RunFailure(error.code === "workflow_missing_tool" ? "workflow_missing_tool" : "workflow_definition_invalid", error.message);
    }
    throw error;
  }
}

/**
 * A slice that yielded: the run as the log now tells it. One that stopped on a wait (an approval,
 * a long retry backoff) says so in the run index, so `GET /v1/runs?status=waiting` finds it; the
 * next slice's `running` write moves it back once the wait is over.
 */
async function yielded(
  env: SliceEnvironment,
  state: RunState,
  thrownWakeAt: number | undefined,
  untilMessage: boolean,
  runDeadline: number | undefined,
): Promise<DriveResult> {
  const now = await env.run.current();
  // Paused (whatever ended the slice: the pause, or time up as it landed): no alarm until the resume.
  if (now.paused) {
    await indexRun(env, state, "paused", indexFieldsOf(now));
    return PAUSED;
  }
  const waitWake = nextWake(env, now, thrownWakeAt, untilMessage);
  // A wait never outlives the run's timeout: the alarm fires at the run's deadline at the latest (a
  // child that has not ended, a sleep or signal wait longer than the run may live), and that slice
  // fails the run as `run_timeout` (cancelling its children), instead of the run noticing only when
  // something else wakes it.
  const wakeAt =
    runDeadline === undefined || (waitWake === undefined && !untilMessage) ? waitWake : Math.min(waitWake ?? runDeadline, runDeadline);
  if (now.waitReason) await indexRun(env, state, "waiting", { ...indexFieldsOf(now), waitReason: now.waitReason });
  return {
    status: now.status,
    yielded: true,
    ...(wakeAt !== undefined ? { wakeAt } : {}),
    // Another open wait's deadline (a parallel sleep or signal timeout) sets the alarm instead.
    ...(untilMessage && wakeAt === undefined ? { untilMessage } : {}),
    ...(now.waitReason ? { waitReason: now.waitReason } : {}),
  };
}

/**
 * When to drive the run again: the yield's own time, or sooner when another open wait is due first
 * (waits of parallel steps: the first to yield aborted the others), or at once when a signal an open
 * wait takes arrived while the slice ran (its sender's wake-up would otherwise be overwritten).
 */
function nextWake(env: SliceEnvironment, now: RunState, thrown: number | undefined, untilMessage: boolean): number | undefined {
  if (thrown === undefined && !untilMessage) return undefined;
  if (deliverableSignal(now)) return env.clock.now();
  const due = earliestWaitDeadline(now);
  // Waiting for a message only (a child's end): no alarm, unless another open wait has a deadline.
  if (thrown === undefined) return due ?? undefined;
  return due !== null && due < thrown ? due : thrown;
}

type Ending = { type: "RunCompleted"; output: unknown } | { type: "RunFailed"; failure: RunFailure };

async function finish(env: SliceEnvironment, ctx: HarnessContext, state: RunState, ending: Ending): Promise<DriveResult> {
  const now = await env.run.current();
  const registration = latestRegistration(now);
  const fields = indexFieldsOf(now);
  if (ending.type === "RunCompleted") {
    await appendEvents(ctx, [
      {
        type: "RunCompleted",
        payload: {
          output: await recordable(ending.output, env.blobs, ctx.redact?.value),
          // Not ended yet, so the fold's usage is the sum over the model responses so far.
          usage: now.usage,
          versionId: registration.versionId ?? "",
        },
      },
    ]);
    await indexRun(env, state, "completed", fields);
    return { status: "completed", yielded: false };
  }
  const { failure } = ending;
  await appendEvents(ctx, [
    {
      type: "RunFailed",
      payload: {
        causeCode: failure.causeCode,
        message: failure.message,
        ...(failure.details !== undefined ? { details: encodeTagged(failure.details) } : {}),
      },
    },
  ]);
  await indexRun(env, state, "failed", { ...fields, causeCode: failure.causeCode });
  // A failed run's children still running (a sibling step failed, the run timed out) have no step to answer: they end too.
  await cancelChildren(env, now, `the run failed: ${failure.causeCode}`);
  return { status: "failed", yielded: false };
}
