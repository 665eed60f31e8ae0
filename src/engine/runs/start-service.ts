import { canonicalBytes } from "../engine/run-quotas.ts";
import { digestJson } from "../json/digest.ts";
import type { RunTrigger } from "../ports/run-events.ts";
import type { RunHandle, RunView } from "../ports/run-handle.ts";
import type { RunPlacement } from "../ports/run-index.ts";
import type { StartAdmission } from "../ports/start-quota.ts";
import { validateJson } from "../schema/validate-json.ts";
import { LittleError } from "../sdk/errors/little-error.ts";
import { WorkflowInputValidationError } from "../sdk/errors/workflow-input-validation-error.ts";
import type { ApiServices } from "./api-env.ts";
import { ApiError, notFound } from "./api-error.ts";
import { type AdmittedDefinition, admitDefinition } from "./definition-gate.ts";
import { assertModelsAvailable } from "./model-gate.ts";
import { QuotaExceededError } from "./quota-exceeded.ts";
import { type QuotaVars, startLimits } from "./quota-limits.ts";
import { unindexedRun } from "./unindexed-run.ts";
import { capabilitiesOf } from "./workflow-capabilities.ts";

/** Cloudflare continent codes → Durable Object location hints. */
const HINT_BY_CONTINENT: Readonly<Record<string, string>> = {
  NA: "enam",
  SA: "sam",
  EU: "weur",
  AS: "apac",
  OC: "oc",
  AF: "afr",
  AN: "oc",
};

export type StartRunArgs = {
  readonly env: Env;
  readonly services: ApiServices;
  readonly tenant: string;
  readonly workflowId: string;
  readonly input: unknown;
  readonly runId: string;
  readonly trigger: RunTrigger;
  /** An explicit location hint; else the caller's continent decides. */
  readonly location?: string;
  readonly continent?: string;
  /** What a repeated start must match, else 409 with this code. */
  readonly conflictCode: "idempotency_conflict" | "run_id_conflict" | "webhook_id_conflict";
  /** LWIR to run as is, without a planner. */
  readonly lwir?: unknown;
  /** The caller named the run id: it may be a minted anchor to adopt (generated ids never are). */
  readonly callerRunId?: boolean;
};

export type StartedRun = {
  readonly view: RunView;
  readonly created: boolean;
  readonly placement: RunPlacement & { jurisdictionEnforced: boolean };
};

/**
 * Starts a run (or finds the one already started under this id): checks the workflow exists and
 * the input fits its schema (422 `input_schema_error`, nothing created), places the run object
 * near the caller or in the definition's jurisdiction, and refuses a reused id whose workflow or
 * input differ (409).
 */
export async function startRun(args: StartRunArgs): Promise<StartedRun> {
  // An anchor minted before its run: ownership is checked before any side effect; another
  // tenant's anchor is simply not found.
  const anchor = args.callerRunId ? await args.services.runs.findAnchor(args.runId) : null;
  if (anchor && anchor.tenant !== args.tenant) throw notFound("run", args.runId);
  if (anchor && anchor.workflowId !== args.workflowId)
    throw new ApiError("anchor_workflow_mismatch", `Run "${args.runId}" was minted for "${anchor.workflowId}", not "${args.workflowId}"`);
  if (!anchor && args.callerRunId) await refuseCancelledAnchor(args);
  const registered = args.services.workflows.get(args.workflowId);
  if (!registered) throw notFound("workflow", args.workflowId);
  // A given LWIR over the quota would fail at registration (D1's row limit): refuse it here, storing nothing.
  if (args.lwir !== undefined) {
    const bytes = canonicalBytes(args.lwir);
    // The wired quotas, as the engine applies them (test overrides included).
    const limit = args.services.runQuotas.lwirBytes;
    if (bytes > limit)
      throw new ApiError(
        "lwir_too_large",
        `The LWIR is ${bytes} bytes of canonical JSON; this Worker's limit is ${limit} (LITTLE_QUOTA_LWIR_BYTES)`,
      );
  }
  const capabilities = await capabilitiesOf(registered);
  const check = validateJson(capabilities.inputSchema, args.input, "input.invalid");
  if (!check.valid) throw new WorkflowInputValidationError(args.workflowId, check.findings);
  // live mode: a slot without its key is refused here, before the first write below.
  assertModelsAvailable(args.services.models, registered, capabilities, { plans: args.lwir === undefined });
  // A given LWIR replaces the planner; a pinned version only applies when none is given.
  const { admitted, admission } = await gateAndAdmit(args, capabilities);
  const jurisdiction = registered.definition.placement.jurisdiction;
  const locationHint = args.location ?? (args.continent ? HINT_BY_CONTINENT[args.continent] : undefined);
  const placement: RunPlacement = { ...(jurisdiction ? { jurisdiction } : {}), ...(locationHint ? { locationHint } : {}) };
  if (!admission.admitted) {
    // A retried start of a run that exists (same run id or idempotency key) creates nothing: it
    // gets its run back, not a 429. Looked up only here, on the refusal path.
    // A run started a moment ago may not have its row yet: its object answers for it.
    const existing =
      (await args.services.runs.get(args.tenant, args.runId)) ?? (await unindexedRun(args.services, args.tenant, args.runId))?.entry;
    if (existing && existing.status !== "minted")
      return createRun(args, placement, admitted, jurisdiction, undefined, { sent: false, answered: false });
    throw new QuotaExceededError(admission.limit, admission.max, admission.retryAfterSeconds);
  }
  let created = false;
  const progress = { sent: false, answered: false };
  try {
    // Adopt the anchor's row instead of inserting one; of concurrent starts one claim wins, and the
    // run object (one per id) creates the run once whichever start reaches it first.
    // A lost claim is another start's (the row is pending: that run is the one to return) or a
    // cancel's that landed between the lookup above and here: then nothing may start.
    if (anchor && !(await args.services.runs.claimAnchor(args.tenant, args.runId, args.services.clock.now())))
      await refuseCancelledAnchor(args);
    // A new run's slot is settled by its first index row, which its run object writes after
    // answering; an adopted anchor's row exists already, so its start settles here.
    const started = await createRun(args, placement, admitted, jurisdiction, anchor ? undefined : admission.windowStart, progress);
    created = started.created;
    return started;
  } finally {
    const outcome = created ? (anchor ? "settle" : "object") : progress.sent && !progress.answered ? "unknown" : "release";
    await settleAdmission(args, admission.windowStart, outcome);
  }
}

/**
 * What an admitted start does with its quota slot. `release`: it created nothing (a repeat of an
 * existing run, a refusal, a failure before the run object was asked): give it back. `settle`: it
 * adopted an anchor, whose row existed already. `object`: a new run, whose first index row
 * settles it. `unknown`: the start RPC failed after it was sent, so the object may have created
 * the run — and then its first row settles the slot; releasing it too would count the run out
 * twice. Left as is, a slot no run took is held until its window ends (a minute at most), the safe
 * side. Best effort: a lost write costs a slot for a minute at most.
 */
async function settleAdmission(
  args: StartRunArgs,
  windowStart: number,
  outcome: "release" | "settle" | "object" | "unknown",
): Promise<void> {
  const quota = args.services.startQuota;
  const done =
    outcome === "release" ? quota.release(args.tenant, windowStart) : outcome === "settle" ? quota.settle(args.tenant, windowStart) : null;
  await done?.catch(() => undefined);
}

/**
 * The definition gate (approval, pin, secrets) and the tenant's start quotas, last before the run
 * is created. Their D1 round trips are independent, so they go out together; the gate's refusal
 * still wins over the quota's, and a start the gate refuses gives back the slot it was admitted
 * to: a refused start leaves nothing behind.
 */
async function gateAndAdmit(
  args: StartRunArgs,
  capabilities: Awaited<ReturnType<typeof capabilitiesOf>>,
): Promise<{ admitted: AdmittedDefinition; admission: StartAdmission }> {
  const now = args.services.clock.now();
  const [gate, quota] = await Promise.allSettled([
    admitDefinition(args.services, args.tenant, capabilities, now),
    args.services.startQuota.admit(args.tenant, now, startLimits(args.env as QuotaVars)),
  ]);
  if (gate.status === "rejected") {
    if (quota.status === "fulfilled" && quota.value.admitted)
      await args.services.startQuota.release(args.tenant, quota.value.windowStart).catch(() => undefined);
    throw gate.reason;
  }
  if (quota.status === "rejected") throw quota.reason;
  return { admitted: gate.value, admission: quota.value };
}

/** An anchor cancelled before any start stays cancelled: no run object may be created for it (409 `run_ended`). */
async function refuseCancelledAnchor(args: StartRunArgs): Promise<void> {
  const indexed = await args.services.runs.get(args.tenant, args.runId);
  if (
    indexed?.triggerKind === "anchor" &&
    indexed.status === "cancelled" &&
    (await args.services.runHandles.open(args.tenant, args.runId, indexed.placement).status()).eventCount === 0
  )
    throw new ApiError("run_ended", `Run "${args.runId}" was cancelled before it started`);
}

async function createRun(
  args: StartRunArgs,
  placement: RunPlacement,
  admitted: Awaited<ReturnType<typeof admitDefinition>>,
  jurisdiction: string | undefined,
  startWindow: number | undefined,
  /** Whether the start RPC was sent, and answered (for the quota: settleAdmission). */
  progress: { sent: boolean; answered: boolean },
): Promise<StartedRun> {
  const client = args.services.runHandles.open(args.tenant, args.runId, placement);
  progress.sent = true;
  const started = await client
    .start({
      ...(startWindow !== undefined ? { startWindow } : {}),
      runId: args.runId,
      workflowId: args.workflowId,
      input: args.input,
      trigger: args.trigger,
      tenant: args.tenant,
      placement,
      ...(args.lwir !== undefined ? { lwir: args.lwir } : {}),
      ...(admitted.approvedDefinitionHash ? { approvedDefinitionHash: admitted.approvedDefinitionHash } : {}),
      ...(admitted.approvedDefinitionHash && admitted.approvedAt !== undefined ? { approvedAt: admitted.approvedAt } : {}),
      ...(admitted.pinnedVersionId && args.lwir === undefined ? { pinnedVersionId: admitted.pinnedVersionId } : {}),
      ...(admitted.pinnedVersionHash && args.lwir === undefined ? { pinnedVersionHash: admitted.pinnedVersionHash } : {}),
    })
    .catch((error: unknown) => {
      if (LittleError.is(error)) throw error;
      // Sent, but its answer was lost: the run may exist. Not a 500: the same start again is safe.
      throw new ApiError(
        "run_start_unconfirmed",
        `The start of run "${args.runId}" was sent to its run object but not confirmed; send the same start again (same run id or Idempotency-Key): it answers the run if it was created`,
        { headers: { "retry-after": "1" } },
      );
    });
  progress.answered = true;
  if (
    !started.created &&
    (started.workflowId !== args.workflowId ||
      digestJson(started.input ?? null) !== digestJson(args.input ?? null) ||
      !(await sameLwir(client, args.lwir)))
  ) {
    throw new ApiError(args.conflictCode, `Run "${args.runId}" already exists with a different workflow, input or LWIR`);
  }
  const { created, ...view } = started;
  return {
    view,
    created,
    placement: { ...placement, jurisdictionEnforced: jurisdiction ? args.services.runHandles.jurisdictionsEnforced() : false },
  };
}

/** Whether the run that exists was given the same LWIR (or, like this start, none): read from its request, on the repeat path only. */
async function sameLwir(client: RunHandle, lwir: unknown): Promise<boolean> {
  const [requested] = await client.events({ after: 0, limit: 1 });
  const given = requested?.type === "RunRequested" ? requested.payload.lwir : undefined;
  if (given === undefined || lwir === undefined) return given === lwir;
  return digestJson(given) === digestJson(lwir);
}
