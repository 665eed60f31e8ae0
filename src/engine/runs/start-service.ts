import type { DefinitionCapabilities } from "../../identity/definition-snapshot.ts";
import type { ModelOverrides } from "../../identity/model-overrides.ts";
import { assertCanonicalizable } from "../../json/canonical-json.ts";
import type { Clock } from "../../ports/clock.ts";
import type { DefinitionApprovals } from "../../ports/definition-approvals.ts";
import type { FlowGate } from "../../ports/flow-limiter.ts";
import type { ModelResolver } from "../../ports/model-resolver.ts";
import type { ParentRef, RunMemo, RunTrigger } from "../../ports/run-events.ts";
import type { RunHandles, RunView } from "../../ports/run-handle.ts";
import type { RunIndex, RunPlacement } from "../../ports/run-index.ts";
import type { SecretStore } from "../../ports/secret-store.ts";
import type { StartLimits } from "../../ports/start-quota.ts";
import type { VersionStore } from "../../ports/version-store.ts";
import { SCHEMA_NORMALIZER } from "../../schema/normalize-schema.ts";
import { validateJson } from "../../schema/validate-json.ts";
import { LittleError } from "../../sdk/errors/little-error.ts";
import { RunDeletedError } from "../../sdk/errors/run-deleted-error.ts";
import { type StartConflictCode, StartRefusedError } from "../../sdk/errors/start-refused-error.ts";
import { WorkflowInputValidationError } from "../../sdk/errors/workflow-input-validation-error.ts";
import { definitionCapabilities } from "../definition-capabilities.ts";
import { flowGatesOf } from "../flow/flow-gates.ts";
import { formatTraceparent, parseTraceparent } from "../observability/trace-context.ts";
import type { RegisteredWorkflow, WorkflowCatalog } from "../run-environment.ts";
import { withRunModelOverrides } from "../run-model-overrides.ts";
import { canonicalBytes, type RunQuotas } from "../run-quotas.ts";
import { type AdmittedDefinition, admitDefinition } from "./definition-gate.ts";
import { assertModelsAvailable } from "./model-gate.ts";
import { mayBeAnchorId } from "./run-ids.ts";
import { checkRunTags, type RunTags } from "./run-tags.ts";
import { tenantGates } from "./tenant-gates.ts";

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

/**
 * What the start service works over. `runHandles` is the port the run object implements: its
 * `start` creates the run once per id and decides a repeat's conflict itself. The Worker's wiring
 * (`src/wiring.ts`) has every one of these.
 */
export type StartPorts = {
  readonly workflows: WorkflowCatalog;
  readonly runs: RunIndex;
  readonly runHandles: RunHandles;
  readonly versions: VersionStore;
  readonly approvals: DefinitionApprovals;
  readonly secrets: SecretStore;
  readonly models: ModelResolver;
  readonly clock: Clock;
  /** The tenant's start limits (`LITTLE_QUOTA_STARTS_PER_MINUTE`, `LITTLE_QUOTA_CONCURRENT_RUNS`), read once by the wiring: the run's tenant gates. */
  readonly startLimits: StartLimits;
  /** The per-run quotas; a given LWIR over `lwirBytes` is refused before anything is stored. */
  readonly runQuotas: RunQuotas;
};

/** One start, as every front door (HTTP, webhooks, RPC, queue, cron, `runWorkflow`) states it. */
export type StartCommand = {
  readonly tenant: string;
  readonly workflowId: string;
  readonly input: unknown;
  readonly runId: string;
  readonly trigger: RunTrigger;
  /** An explicit location hint; else the caller's continent decides. */
  readonly location?: string | undefined;
  readonly continent?: string | undefined;
  /** What a repeated start must match (workflow, input, LWIR), else it is refused with this code (409). */
  readonly conflictCode: StartConflictCode;
  /** LWIR to run as is, without a planner. */
  readonly lwir?: unknown;
  /** The caller named the run id: it may be a minted anchor to adopt (generated ids never are). */
  readonly callerRunId?: boolean;
  /** Answer when the run has ended (or a section waits), or after this many ms: the run object waits, no second call. */
  readonly waitMs?: number | undefined;
  /** A child run (a parent's `workflow.run` step): the parent its run object tells when it ends. */
  readonly parent?: ParentRef;
  /** The caller's W3C `traceparent` (HTTP or webhook header, RPC option, queue field): the run's trace joins it; a malformed one is ignored, as W3C asks. */
  readonly traceparent?: string | undefined;
  /** A restart or fork (src/engine/runs/restart-run.ts, fork-run.ts): the run whose recorded results it reuses. */
  readonly memo?: RunMemo;
  /** A fork's model changes, laid over the deployment's for this run only. */
  readonly modelOverrides?: ModelOverrides;
  /** The run's tags (`key` → `value`): checked here (422 `run_tags_invalid`), recorded in `RunRequested`, in the run index. */
  readonly tags?: unknown;
};

export type StartedRun = {
  readonly view: RunView;
  /** False for a repeat of a start that created the run before (same run id, key or delivery). */
  readonly created: boolean;
  readonly placement: RunPlacement & { jurisdictionEnforced: boolean };
};

/**
 * **The one way to start a run.** Every start — HTTP, webhooks, RPC, the queue consumer, cron,
 * `runWorkflow` through the Cloudflare world, child runs (`workflow.run`, src/engine/children/), and every later kind (restarts, forks,
 * queued runs) — calls this, so admission is the same whichever door a run came through:
 *
 * 1. an anchor named by the caller is the tenant's and of this workflow (else 404 / 409), and not cancelled;
 * 2. the workflow is registered; a given LWIR fits `LITTLE_QUOTA_LWIR_BYTES` (413);
 * 3. the input fits the input schema (422 `input_schema_error`), before anything is stored;
 * 4. in live model mode every slot the run may call has its key (409 `model_unavailable`);
 * 5. the definition gate (approval, pin, secrets: kept per isolate, approval-reads.ts);
 * 6. the run object starts the run, once per id; a repeat that differs is a 409 conflict. A run
 *    with flow control (`concurrency`, `throttle`) is accepted either way: its object asks its
 *    key's limiter in the same call and the run is admitted or queued (docs/flow-control.md).
 *
 * The tenant's start quotas are not on this path: they are gates the run records with its request
 * (tenant-gates.ts) and passes from its alarm, after the ack, before any work; over a quota it
 * waits, it is not refused. So an ordinary start makes no D1 round trip before its ack (an anchor
 * named by the caller adds its lookup; docs/runs.md, "Where a start waits").
 *
 * Every refusal is a named error (`StartRefusedError`, …) thrown before anything is stored. A lost
 * answer from the run object is 503 `run_start_unconfirmed`: the run may exist, and the same
 * start again answers it.
 */
export async function startRun(ports: StartPorts, command: StartCommand): Promise<StartedRun> {
  // An anchor minted before its run: ownership is checked before any side effect; another
  // tenant's anchor is simply not found.
  // Only an id of an anchor's shape is looked up: any other caller id cannot have been minted.
  const mayBeAnchor = command.callerRunId === true && mayBeAnchorId(command.runId);
  const anchor = mayBeAnchor ? await ports.runs.findAnchor(command.runId) : null;
  if (anchor && anchor.tenant !== command.tenant) throw runNotFound(command.runId);
  if (anchor && anchor.workflowId !== command.workflowId)
    throw new StartRefusedError(
      "anchor_workflow_mismatch",
      `Run "${command.runId}" was minted for "${anchor.workflowId}", not "${command.workflowId}"`,
    );
  if (!anchor && mayBeAnchor) await refuseCancelledAnchor(ports, command);
  const found = ports.workflows.get(command.workflowId);
  if (!found) throw new StartRefusedError("workflow_not_found", `No workflow "${command.workflowId}"`);
  const registered = withRunModelOverrides(found, command.modelOverrides);
  // Bad tags are the caller's mistake, refused before anything is asked or stored.
  const tags = checkRunTags(command.tags);
  const capabilities = await admitRequest(ports, command, registered);
  // Flow control: the gates with their keys rendered over the input (a key that does not render is
  // 422, before anything is stored), then the tenant's quotas, which the run passes after the ack.
  const flow = [...flowGatesOf(registered.definition, command.input), ...tenantGates(ports.startLimits)];
  // A given LWIR replaces the planner; a pinned version only applies when none is given.
  const admitted = await admitDefinition(ports, command.tenant, capabilities, ports.clock.now());
  const jurisdiction = registered.definition.placement.jurisdiction;
  const locationHint = command.location ?? (command.continent ? HINT_BY_CONTINENT[command.continent] : undefined);
  const placement: RunPlacement = { ...(jurisdiction ? { jurisdiction } : {}), ...(locationHint ? { locationHint } : {}) };
  // Adopt the anchor's row instead of inserting one; of concurrent starts one claim wins, and the
  // run object (one per id) creates the run once whichever start reaches it first.
  // A lost claim is another start's (the row is pending: that run is the one to return) or a
  // cancel's that landed between the lookup above and here: then nothing may start.
  if (anchor && !(await ports.runs.claimAnchor(command.tenant, command.runId, ports.clock.now())))
    await refuseCancelledAnchor(ports, command);
  return askRunObject({ ports, command, placement, admitted, jurisdiction, flow, tags });
}

/**
 * The checks on the request itself, before any store is asked: a given LWIR's size, the input
 * against the schema (the run does not validate it again), the model slots in live mode.
 */
async function admitRequest(ports: StartPorts, command: StartCommand, registered: RegisteredWorkflow): Promise<DefinitionCapabilities> {
  // A given LWIR over the quota would fail at registration (D1's row limit): refuse it here, storing nothing.
  if (command.lwir !== undefined) {
    const bytes = canonicalBytes(command.lwir);
    const limit = ports.runQuotas.lwirBytes;
    if (bytes > limit)
      throw new StartRefusedError(
        "lwir_too_large",
        `The LWIR is ${bytes} bytes of canonical JSON; this Worker's limit is ${limit} (LITTLE_QUOTA_LWIR_BYTES)`,
      );
  }
  // Every start (HTTP, RPC, queue, webhook): a value canonical JSON refuses (too deep, a cycle) is
  // 400 here, before the recursive schema check or the RPC to the run object can overflow on it.
  // Wrapped as the run object records it (`{ input, … }`), so the limit and the path are its own.
  assertCanonicalizable({ input: command.input ?? null });
  const capabilities = await definitionCapabilities(registered, SCHEMA_NORMALIZER);
  const check = validateJson(capabilities.inputSchema, command.input, "input.invalid");
  if (!check.valid) throw new WorkflowInputValidationError(command.workflowId, check.findings);
  // live mode: a slot without its key is refused here, before the first write.
  assertModelsAvailable(ports.models, registered, capabilities, { plans: command.lwir === undefined });
  return capabilities;
}

/** An anchor cancelled before any start stays cancelled: no run object may be created for it (409 `run_ended`). */
async function refuseCancelledAnchor(ports: StartPorts, command: StartCommand): Promise<void> {
  const indexed = await ports.runs.get(command.tenant, command.runId);
  if (
    indexed?.triggerKind === "anchor" &&
    indexed.status === "cancelled" &&
    (await ports.runHandles.open(command.tenant, command.runId, indexed.placement).status()).eventCount === 0
  )
    throw new StartRefusedError("run_ended", `Run "${command.runId}" was cancelled before it started`);
}

type AdmittedStart = {
  readonly ports: StartPorts;
  readonly command: StartCommand;
  readonly placement: RunPlacement;
  readonly admitted: AdmittedDefinition;
  readonly jurisdiction: string | undefined;
  readonly flow: FlowGate[];
  readonly tags: RunTags | undefined;
};

/**
 * The start itself: one call to the run object, which creates the run (or finds it), decides a
 * repeat's conflict and, with `waitMs`, waits for the end before it answers.
 */
async function askRunObject(start: AdmittedStart): Promise<StartedRun> {
  const { ports, command, placement, admitted, jurisdiction, flow, tags } = start;
  const client = ports.runHandles.open(command.tenant, command.runId, placement);
  const answer = await client
    .start({
      runId: command.runId,
      workflowId: command.workflowId,
      input: command.input,
      trigger: command.trigger,
      tenant: command.tenant,
      placement,
      ...(command.lwir !== undefined ? { lwir: command.lwir } : {}),
      ...(admitted.approvedDefinitionHash ? { approvedDefinitionHash: admitted.approvedDefinitionHash } : {}),
      ...(admitted.approvedDefinitionHash && admitted.approvedAt !== undefined ? { approvedAt: admitted.approvedAt } : {}),
      ...(admitted.pinnedVersionId && command.lwir === undefined ? { pinnedVersionId: admitted.pinnedVersionId } : {}),
      ...(admitted.pinnedVersionHash && command.lwir === undefined ? { pinnedVersionHash: admitted.pinnedVersionHash } : {}),
      ...(command.waitMs !== undefined && command.waitMs > 0 ? { waitMs: command.waitMs } : {}),
      ...(command.parent ? { parent: command.parent } : {}),
      ...(command.memo ? { memo: command.memo } : {}),
      ...(command.modelOverrides ? { modelOverrides: command.modelOverrides } : {}),
      ...(flow.length > 0 ? { flow } : {}),
      ...(tags ? { tags } : {}),
      ...traceparentOf(command),
    })
    .catch((error: unknown) => {
      if (LittleError.is(error)) throw error;
      // Sent, but its answer was lost: the run may exist. Not a 500: the same start again is safe.
      throw new StartRefusedError(
        "run_start_unconfirmed",
        `The start of run "${command.runId}" was sent to its run object but not confirmed; send the same start again (same run id or Idempotency-Key): it answers the run if it was created`,
        { retryAfterSeconds: 1 },
      );
    });
  // A deleted run's object keeps a marker: its id, or the key that derived it, never starts again.
  if (answer.outcome === "deleted") throw new RunDeletedError(command.runId, answer.deletedAt);
  if (answer.outcome === "conflict")
    throw new StartRefusedError(
      command.conflictCode,
      `Run "${command.runId}" already exists with a different workflow, input, LWIR or tags`,
    );
  return {
    view: answer.view,
    created: answer.outcome === "created",
    placement: { ...placement, jurisdictionEnforced: jurisdiction ? ports.runHandles.jurisdictionsEnforced() : false },
  };
}

function runNotFound(runId: string): StartRefusedError {
  return new StartRefusedError("run_not_found", `No run "${runId}"`);
}

/** The start's `traceparent`, normalized, when it is well-formed (docs/observability.md). */
function traceparentOf(command: StartCommand): { traceparent?: string } {
  const parent = parseTraceparent(command.traceparent);
  return parent ? { traceparent: formatTraceparent(parent) } : {};
}
