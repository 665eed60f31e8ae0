import type { ModelOverrides } from "../identity/model-overrides.ts";
import type { BlobOwner, BlobStore } from "../ports/blob-store.ts";
import type { ChildRuns } from "../ports/child-runs.ts";
import type { Clock } from "../ports/clock.ts";
import type { DefinitionApprovals } from "../ports/definition-approvals.ts";
import type { EventLog } from "../ports/event-log.ts";
import type { LiveModelOutput } from "../ports/live-output.ts";
import type { ModelLimiters } from "../ports/model-limiter.ts";
import type { ModelResolver } from "../ports/model-resolver.ts";
import type { RunIndex } from "../ports/run-index.ts";
import type { Sandbox } from "../ports/sandbox.ts";
import type { SecretStore } from "../ports/secret-store.ts";
import type { SourceRuns } from "../ports/source-runs.ts";
import type { VersionStore } from "../ports/version-store.ts";
import type { WorkflowDefinition } from "../sdk/define-workflow.ts";
import type { ToolRegistry } from "../sdk/tool.ts";
import { resolveCallGraph } from "./children/call-graph.ts";
import type { RunQuotas } from "./run-quotas.ts";
import type { SliceState } from "./run-state/slice-state.ts";

/**
 * A workflow a run can be started for, with the tools its `globalTools` resolve against and the
 * deployment's model overrides (`LITTLE_MODEL_<SLOT>`), which are part of its definition hash.
 */
export type RegisteredWorkflow = {
  readonly definition: WorkflowDefinition;
  readonly tools: ToolRegistry;
  readonly modelOverrides?: ModelOverrides;
  /** The registered workflows its `workflow.run` steps may call (`definition.workflows`), resolved by the catalog. */
  readonly callees?: readonly RegisteredWorkflow[];
};

/** Looks workflows up by id (the Worker's registry, or a test's). */
export interface WorkflowCatalog {
  get(workflowId: string): RegisteredWorkflow | undefined;
  /** Every registered id, sorted. */
  ids(): string[];
}

/** Everything one drive slice of one run needs: the ports, built by {@link runEnvironment}. */
export type RunEnvironment = {
  readonly runId: string;
  readonly log: EventLog;
  readonly versions: VersionStore;
  readonly runs: RunIndex;
  readonly blobs: BlobStore;
  readonly sandbox: Sandbox;
  readonly models: ModelResolver;
  readonly clock: Clock;
  readonly workflows: WorkflowCatalog;
  readonly sleep: (ms: number) => Promise<void>;
  /** How long this slice may start new live calls, in ms. */
  readonly sliceMs: number;
  /** Idle ms after which a model call counts as hung (`LITTLE_MODEL_TIMEOUT_MS`); the harness default when absent. */
  readonly modelTimeoutMs?: number;
  /** Aborted when the run is cancelled while the slice runs. */
  readonly signal?: AbortSignal;
  /** Aborted when the run is paused while the slice runs: nothing new starts, calls in flight finish. */
  readonly pause?: AbortSignal;
  /** Per-run limits (LWIR bytes, model tokens, log bytes). */
  readonly quotas: RunQuotas;
  /**
   * The tenants' approvals: a run started under one checks at every slice that it still stands
   * (revoked: `definition_approval_revoked`).
   */
  readonly approvals: DefinitionApprovals;
  /** Where the secrets a definition binds are decrypted from (no key configured: such runs fail closed). */
  readonly secrets: SecretStore;
  /** The Worker's `env` (bindings and vars), handed to tools as `context.env`; never logged. */
  readonly bindings?: unknown;
  /** Where `workflow.run` steps start their child runs (through the start service) and cancel them. */
  readonly children: ChildRuns;
  /** Shared model limits (a slot's `limits`), per tenant; absent where the host has no limiters. */
  readonly modelLimits?: { readonly limiters: ModelLimiters; readonly tenant: string };
  /** Where a restart or fork reads its source run (memo/reuse-step.ts); absent: every step runs. */
  readonly sourceRuns?: SourceRuns;
  /** Where live model calls report their partial text (the run object's SSE deltas); absent: not reported. */
  readonly liveOutput?: LiveModelOutput;
};

/**
 * The host's side of every run's environment: the Worker's wiring (`src/wiring.ts`), the in-memory
 * world's stores, the bench's. Every port is required, so a host that forgets one does not compile.
 */
export type RunWiring = {
  readonly versions: VersionStore;
  readonly approvals: DefinitionApprovals;
  readonly runs: RunIndex;
  /** One run's blob store (a run reads only the blobs it stored). */
  readonly blobsFor: (owner: BlobOwner) => BlobStore;
  readonly sandbox: Sandbox;
  readonly models: ModelResolver;
  readonly secrets: SecretStore;
  readonly clock: Clock;
  readonly workflows: WorkflowCatalog;
  readonly sliceMs: number;
  readonly modelTimeoutMs?: number;
  readonly runQuotas: RunQuotas;
  readonly children: ChildRuns;
  readonly modelLimits?: ModelLimiters;
  readonly sourceRuns?: SourceRuns;
};

/** The one run a slice drives, and what its host adds for it. */
export type RunScope = {
  readonly runId: string;
  readonly tenant: string;
  readonly log: EventLog;
  /** The index as this run writes it (the run object's clears its repair mark); default the wiring's. */
  readonly runs?: RunIndex;
  /** Waits out retry backoffs; default a timer (tests pass one that advances a fake clock). */
  readonly sleep?: (ms: number) => Promise<void>;
  readonly signal?: AbortSignal;
  /** The host's pause signal (the run object aborts it when a pause lands while the slice runs). */
  readonly pause?: AbortSignal;
  /** The Worker's `env`, handed to tools as `context.env`. */
  readonly bindings?: unknown;
  /** The run object's live calls (SSE deltas). */
  readonly liveOutput?: LiveModelOutput;
};

const timerSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The one builder of a {@link RunEnvironment}: the run object's alarm, the in-memory world and the
 * bench all drive runs over what it returns, so a port added here reaches every host at once.
 *
 * @example
 * await driveSlice(runEnvironment(wire(env), { runId, tenant, log, signal }), alarm);
 */
export function runEnvironment(wiring: RunWiring, run: RunScope): RunEnvironment {
  return {
    runId: run.runId,
    log: run.log,
    versions: wiring.versions,
    runs: run.runs ?? wiring.runs,
    blobs: wiring.blobsFor({ tenant: run.tenant, runId: run.runId }),
    sandbox: wiring.sandbox,
    models: wiring.models,
    clock: wiring.clock,
    workflows: wiring.workflows,
    sleep: run.sleep ?? timerSleep,
    sliceMs: wiring.sliceMs,
    ...(wiring.modelTimeoutMs !== undefined ? { modelTimeoutMs: wiring.modelTimeoutMs } : {}),
    ...(run.signal ? { signal: run.signal } : {}),
    ...(run.pause ? { pause: run.pause } : {}),
    quotas: wiring.runQuotas,
    approvals: wiring.approvals,
    secrets: wiring.secrets,
    ...(run.bindings !== undefined ? { bindings: run.bindings } : {}),
    children: wiring.children,
    ...(wiring.modelLimits ? { modelLimits: { limiters: wiring.modelLimits, tenant: run.tenant } } : {}),
    ...(wiring.sourceRuns ? { sourceRuns: wiring.sourceRuns } : {}),
    ...(run.liveOutput ? { liveOutput: run.liveOutput } : {}),
  };
}

/**
 * What a drive slice runs over: the run's environment, its log tracked by {@link SliceState}, and
 * that state, which the drive loop, the outer loop and the steps read instead of refolding the log.
 */
export type SliceEnvironment = RunEnvironment & { readonly run: SliceState };

/**
 * A catalog over a fixed list: the registry. Its call graph is checked here, when it is built:
 * a callee that is not registered or a call cycle throws (`workflow_callee_missing`, `workflow_call_cycle`).
 */
export function catalogOf(entries: readonly RegisteredWorkflow[]): WorkflowCatalog {
  const byId = new Map(resolveCallGraph(entries).map((e) => [e.definition.id, e]));
  return { get: (id) => byId.get(id), ids: () => [...byId.keys()].sort() };
}
