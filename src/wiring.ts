/**
 * The one place adapters are wired to ports for the Worker, its API and its run objects
 * (docs/architecture.md, rule 3), built once per isolate (per `env` object) and reused by every request
 * and RPC. The workflows come from {@link installWorkflows} (createWorker calls it); this module
 * imports none. Tests replace pieces through {@link overrideWiring}; nothing else reaches in.
 */

import { exports } from "cloudflare:workers";
import { bulkJobs } from "./adapters/cloudflare/bulk-jobs.ts";
import { type FlowRunHandles, flowLimiters, flowRunHandles, modelLimiters } from "./adapters/cloudflare/flow-limiters.ts";
import { runClients } from "./adapters/cloudflare/run-client.ts";
import { D1DefinitionApprovals } from "./adapters/d1/d1-definition-approvals.ts";
import { D1MemoryStore } from "./adapters/d1/d1-memory-store.ts";
import { D1RunDeletions } from "./adapters/d1/d1-run-deletions.ts";
import { D1RunIndex } from "./adapters/d1/d1-run-index.ts";
import { D1RunLinks } from "./adapters/d1/d1-run-links.ts";
import { D1SealedRows } from "./adapters/d1/d1-sealed-rows.ts";
import { D1TokenStore } from "./adapters/d1/d1-token-store.ts";
import { D1UnusedVersions } from "./adapters/d1/d1-unused-versions.ts";
import { D1VersionStore } from "./adapters/d1/d1-version-store.ts";
import { D1WebhookDeliveries } from "./adapters/d1/d1-webhook-deliveries.ts";
import { DurableObjectEventLog } from "./adapters/do-sqlite/do-event-log.ts";
import { EnvModelResolver, parseModelMode } from "./adapters/models/env-model-resolver.ts";
import { modelOverridesFromEnv } from "./adapters/models/model-overrides-from-env.ts";
import { purgeRunBlobs, R2BlobStore } from "./adapters/r2/r2-blob-store.ts";
import { ContainerSandbox } from "./adapters/sandbox-container/container-sandbox.ts";
import { openSandboxes } from "./adapters/sandbox-container/sandbox-binding.ts";
import { parseSandboxKind } from "./adapters/sandbox-container/sandbox-kind.ts";
import { IsolateSandbox } from "./adapters/sandbox-isolate/isolate-sandbox.ts";
import { SealedSecretStore } from "./adapters/secrets/sealed-secret-store.ts";
import { childRunsOf } from "./engine/children/child-runs.ts";
import { sourceRunsOver } from "./engine/memo/source-runs-over.ts";
import { withModelOverrides } from "./engine/model-override-catalog.ts";
import { catalogOf, type WorkflowCatalog } from "./engine/run-environment.ts";
import { positive, type RunQuotas, runQuotasFromVars } from "./engine/run-quotas.ts";
import { RUN_STATE_FOLD } from "./engine/run-state.ts";
import { startLimits } from "./engine/runs/start-limits.ts";
import { MODEL_OVERRIDE_PREFIX, type ModelOverrides, slotOverrideKey } from "./identity/model-overrides.ts";
import type { BlobOwner, BlobStore, RunBlobPurger } from "./ports/blob-store.ts";
import type { BulkJobs } from "./ports/bulk-jobs.ts";
import type { ChildRuns } from "./ports/child-runs.ts";
import type { Clock } from "./ports/clock.ts";
import { systemClock } from "./ports/clock.ts";
import type { DefinitionApprovals } from "./ports/definition-approvals.ts";
import type { EventLog } from "./ports/event-log.ts";
import type { FlowLimiters } from "./ports/flow-limiter.ts";
import type { ModelLimiters } from "./ports/model-limiter.ts";
import type { ModelResolver } from "./ports/model-resolver.ts";
import type { RunDeletions } from "./ports/run-deletions.ts";
import type { NewRunEvent, RunEvent } from "./ports/run-events.ts";
import type { RunHandles } from "./ports/run-handle.ts";
import type { RunIndex } from "./ports/run-index.ts";
import type { RunLinks } from "./ports/run-links.ts";
import type { Sandbox } from "./ports/sandbox.ts";
import type { SecretStore } from "./ports/secret-store.ts";
import type { SourceRuns } from "./ports/source-runs.ts";
import type { SpanExporter } from "./ports/span-exporter.ts";
import type { StartLimits } from "./ports/start-quota.ts";
import type { TokenStore } from "./ports/token-store.ts";
import type { UnusedVersions } from "./ports/unused-versions.ts";
import type { VersionStore } from "./ports/version-store.ts";
import type { WebhookDeliveries } from "./ports/webhook-deliveries.ts";
import { spanExporterFromVars } from "./wiring/span-exporter.ts";

/** Replaceable pieces. The append hooks let crash tests abort the object at an event boundary. */
export type WiringOverrides = {
  models?: ModelResolver;
  /**
   * Vars that stand in for the Worker's model configuration (`LITTLE_MODELS`, `LITTLE_MODEL_<SLOT>`,
   * provider keys and base URLs, the `AI` binding): both the resolver and the overrides hashed
   * into definitions read them. Ignored for the resolver when `models` is given.
   */
  modelEnv?: Readonly<Record<string, unknown>>;
  /** Instead of the catalog createWorker installed. */
  workflows?: WorkflowCatalog;
  clock?: Clock;
  sliceMs?: number;
  /** Per-run quotas, instead of the LITTLE_QUOTA_* vars. */
  runQuotas?: RunQuotas;
  secrets?: SecretStore;
  /** Wraps the D1 run index: interleaving tests land a call between two of its operations. */
  runs?: (index: RunIndex) => RunIndex;
  /** Wraps the deletions store: crash tests fail a deletion between two of its steps. */
  deletions?: (deletions: RunDeletions) => RunDeletions;
  /** Wraps the run objects' handles: tests fail an RPC after the object acted on it. */
  runHandles?: (handles: RunHandles) => RunHandles;
  /** Wraps the D1 binding every D1 adapter uses: the global-latency bench puts the database far away. */
  database?: (db: D1Database) => D1Database;
  /** How long a flow-control slot lasts without a renewal, instead of LITTLE_FLOW_LEASE_MS. */
  flowLeaseMs?: number;
  /** Wraps the flow-control limiters: tests count or fail their calls. */
  flow?: (limiters: FlowLimiters) => FlowLimiters;
  /** Wraps the shared model limiters. */
  modelLimits?: (limiters: ModelLimiters) => ModelLimiters;
  /** Instead of the OTLP exporter from `LITTLE_OTLP_*` (null: tracing off). */
  spans?: SpanExporter | null;
  beforeAppend?: (events: readonly NewRunEvent[], ctx: DurableObjectState) => void;
  /** Called in a bulk job's object after each act on a run (a cancel or a purge): crash tests abort it there. */
  afterBulkAct?: (ctx: DurableObjectState) => void;
  /** Called inside a run object's purge, its storage wiped and the deleted marker not yet written: crash tests abort it there. */
  duringPurge?: (ctx: DurableObjectState) => void;
  /** Runs per page of a bulk job's walk, instead of BULK_PAGE_SIZE. */
  bulkPageSize?: number;
  afterAppend?: (events: readonly RunEvent[], ctx: DurableObjectState) => void;
};

let overrides: WiringOverrides = {};
/** The wiring built for each `env` object (one per isolate in the Worker and in each run object). */
let built = new WeakMap<object, Wiring>();
/** The Worker's registry, installed by `createWorker` when its entry module loads (empty until then). */
let installed: WorkflowCatalog = catalogOf([]);

/**
 * Installs the workflows this isolate serves. The one registry seam: `createWorker` calls it at
 * module load, before any request or run object, so the fetch path and every `RunObject` (which
 * wires from the same module state) see the same catalog. A later call replaces it.
 */
export function installWorkflows(catalog: WorkflowCatalog): void {
  installed = catalog;
  built = new WeakMap();
}

/** Test seam: replaces pieces of the wiring until reset with `overrideWiring({})`. Wiring built before is dropped. */
export function overrideWiring(next: WiringOverrides): void {
  overrides = next;
  built = new WeakMap();
}

export type Wiring = {
  readonly versions: VersionStore;
  readonly approvals: DefinitionApprovals;
  readonly runs: RunIndex;
  /** One run's blob store: a run object opens only its own (tenant and run id from its log). */
  readonly blobsFor: (owner: BlobOwner) => BlobStore;
  /** Deletes all of one run's blobs (deleting a run: src/engine/deletion). */
  readonly purgeBlobs: RunBlobPurger;
  /** Tombstones of deleted runs, the purge of run-keyed rows, tenants' retention overrides. */
  readonly deletions: RunDeletions;
  /** Deletes versions nothing references any more, after a run's deletion and on the cron. */
  readonly unusedVersions: UnusedVersions;
  /** `LITTLE_RETENTION_DAYS`: ended runs older than this are deleted by the cron; null (unset): kept for ever. */
  readonly retentionDays: number | null;
  /** Bulk jobs, one Durable Object per job (`BULK`). */
  readonly bulkJobs: BulkJobs;
  readonly models: ModelResolver;
  readonly sandbox: Sandbox;
  readonly secrets: SecretStore;
  readonly clock: Clock;
  readonly workflows: WorkflowCatalog;
  readonly sliceMs: number;
  /** `LITTLE_MODEL_TIMEOUT_MS`: idle ms before a model call counts as hung (unset: the harness default). */
  readonly modelTimeoutMs?: number;
  /** `LITTLE_QUOTA_LWIR_BYTES`, `LITTLE_QUOTA_TOKENS_PER_RUN`, `LITTLE_QUOTA_EVENT_LOG_BYTES`. */
  readonly runQuotas: RunQuotas;
  /** Each run's {@link RunHandle}: the API and the Cloudflare world reach runs only through these. */
  readonly runHandles: RunHandles;
  readonly tokens: TokenStore;
  readonly deliveries: WebhookDeliveries;
  /** `LITTLE_QUOTA_STARTS_PER_MINUTE`, `LITTLE_QUOTA_CONCURRENT_RUNS`, read once here. */
  readonly startLimits: StartLimits;
  /** Child runs of `workflow.run` steps, started through the start service over this same wiring. */
  readonly children: ChildRuns;
  /** Flow control's limiters, one Durable Object per (tenant, workflow, gate, key) (docs/flow-control.md). */
  readonly flow: FlowLimiters;
  /** The run objects as the limiters wake and check on them. */
  readonly flowRuns: FlowRunHandles;
  /** `LITTLE_FLOW_LEASE_MS` (default 60 s): a held slot's lease, renewed by each slice of its run. */
  readonly flowLeaseMs: number;
  /** Shared model limits (a slot's `limits`), one object per (tenant, provider, model); absent without `FLOW`. */
  readonly modelLimits?: ModelLimiters;
  /** Where runs' spans go (`LITTLE_OTLP_ENDPOINT`); null when unset: no tracing work at all. */
  readonly spans: SpanExporter | null;
  /** Where a restart or fork reads its source run's log and blobs (docs/runs.md, "Restart and forks"). */
  readonly sourceRuns: SourceRuns;
  /** Restarts and forks by the run they came from. */
  readonly runLinks: RunLinks;
  /** A fork's `models: { slot: "provider:model" }` as model overrides (unknown providers kept as invalid entries). */
  readonly parseModels: (models: Readonly<Record<string, string>>) => ModelOverrides;
};

/** A held flow-control slot's lease when LITTLE_FLOW_LEASE_MS is unset. */
export const DEFAULT_FLOW_LEASE_MS = 60_000;

/**
 * The ports, from the Worker's bindings, vars and secrets: built on the first call for an `env`
 * and reused after. `runId` (`<tenant>:<runId>`) scopes per-run resources: the container sandbox
 * keeps one set of containers per run across its slices, the isolate sandbox keeps its warm code.run
 * isolates per run (each a cheap view over the shared wiring).
 */
export function wire(env: Env, scope: { runId?: string } = {}): Wiring {
  let wiring = built.get(env);
  if (!wiring) {
    wiring = build(env);
    built.set(env, wiring);
  }
  if (scope.runId === undefined) return wiring;
  // code.run isolates stay warm within one run only: module state never crosses a run or a tenant.
  if (wiring.sandbox instanceof IsolateSandbox) return { ...wiring, sandbox: wiring.sandbox.forScope(scope.runId) };
  if (!(wiring.sandbox instanceof ContainerSandbox)) return wiring;
  return { ...wiring, sandbox: containerSandbox(env, scope.runId) };
}

function containerSandbox(env: Env, scope?: string): ContainerSandbox {
  return new ContainerSandbox({ open: openSandboxes(env.SANDBOX), memory: new D1MemoryStore(database(env)), ...(scope ? { scope } : {}) });
}

/** The D1 binding, as the overrides wrap it. */
function database(env: Env): D1Database {
  return overrides.database ? overrides.database(env.DB) : env.DB;
}

function build(env: Env): Wiring {
  const vars = env as unknown as Record<string, unknown>;
  const db = database(env);
  const modelEnv = overrides.modelEnv ?? vars;
  // LITTLE_MODEL_<SLOT> vars: read into data once here, handed to the resolver and to the catalog
  // (which attaches them to every workflow, so they are part of its definition hash).
  const modelOverrides = modelOverridesFromEnv(modelEnv);
  const ports: Omit<Wiring, "children"> = {
    versions: new D1VersionStore(db),
    approvals: new D1DefinitionApprovals(db),
    runs: overrides.runs ? overrides.runs(new D1RunIndex(db)) : new D1RunIndex(db),
    blobsFor: (owner) => new R2BlobStore(env.BLOBS, owner),
    purgeBlobs: (owner) => purgeRunBlobs(env.BLOBS, owner),
    deletions: overrides.deletions ? overrides.deletions(new D1RunDeletions(db)) : new D1RunDeletions(db),
    unusedVersions: new D1UnusedVersions(db),
    retentionDays: positive(vars.LITTLE_RETENTION_DAYS) ?? null,
    bulkJobs: bulkJobs(env.BULK),
    models:
      overrides.models ??
      new EnvModelResolver({
        mode: parseModelMode(stringVar(modelEnv.LITTLE_MODELS)),
        secrets: modelEnv,
        overrides: modelOverrides,
        offlineLatencyMs: Number(stringVar(modelEnv.LITTLE_OFFLINE_LATENCY_MS) ?? 0) || 0,
      }),
    // LITTLE_SANDBOX: an unknown value throws SandboxConfigurationError (sandbox_config_invalid).
    sandbox:
      parseSandboxKind(stringVar(vars.LITTLE_SANDBOX)) === "container"
        ? containerSandbox(env)
        : new IsolateSandbox({
            loader: env.LOADER,
            networkGate: (hosts) => exports.NetworkGate({ props: { hosts } }),
            memory: new D1MemoryStore(db),
          }),
    secrets: overrides.secrets ?? new SealedSecretStore(new D1SealedRows(db), stringVar(vars.LITTLE_SECRETS_KEY)),
    clock: overrides.clock ?? systemClock,
    workflows: withModelOverrides(overrides.workflows ?? installed, modelOverrides),
    sliceMs: overrides.sliceMs ?? (Number(stringVar(vars.LITTLE_SLICE_MS)) || 30_000),
    runQuotas: overrides.runQuotas ?? runQuotasFromVars(vars),
    ...(Number(stringVar(vars.LITTLE_MODEL_TIMEOUT_MS)) > 0 ? { modelTimeoutMs: Number(stringVar(vars.LITTLE_MODEL_TIMEOUT_MS)) } : {}),
    runHandles: overrides.runHandles ? overrides.runHandles(runClients(env.RUNS)) : runClients(env.RUNS),
    tokens: new D1TokenStore(db),
    deliveries: new D1WebhookDeliveries(db),
    startLimits: startLimits(vars),
    flow: overrides.flow ? overrides.flow(flowLimiters(env.FLOW)) : flowLimiters(env.FLOW),
    flowRuns: flowRunHandles(env.RUNS),
    flowLeaseMs: overrides.flowLeaseMs ?? (Number(stringVar(vars.LITTLE_FLOW_LEASE_MS)) || DEFAULT_FLOW_LEASE_MS),
    ...modelLimitsOf(env),
    spans: overrides.spans !== undefined ? overrides.spans : spanExporterFromVars(vars),
    sourceRuns: sourceRunsOver(
      overrides.runHandles ? overrides.runHandles(runClients(env.RUNS)) : runClients(env.RUNS),
      (owner) => new R2BlobStore(env.BLOBS, owner),
    ),
    runLinks: new D1RunLinks(db),
    parseModels: (models) =>
      modelOverridesFromEnv(
        Object.fromEntries(Object.entries(models).map(([slot, value]) => [`${MODEL_OVERRIDE_PREFIX}${slotOverrideKey(slot)}`, value])),
      ),
  };
  return { ...ports, children: childRunsOf(ports) };
}

function modelLimitsOf(env: Env): { modelLimits?: ModelLimiters } {
  const limiters = modelLimiters(env.FLOW);
  if (!limiters) return {};
  return { modelLimits: overrides.modelLimits ? overrides.modelLimits(limiters) : limiters };
}

/** A run object's log: the port, and `release()`, which drops the whole-log copy the drive reads from. */
export type RunObjectLog = EventLog & { release(): void };

/**
 * A run object's event log, over its own SQLite storage. The crash tests' append hooks
 * ({@link WiringOverrides}) are read at each append; `afterAppend` then feeds live subscribers.
 */
export function runObjectLog(
  ctx: DurableObjectState,
  runId: string,
  clock: Clock,
  afterAppend: (events: readonly RunEvent[]) => void,
): RunObjectLog {
  return new DurableObjectEventLog(
    ctx.storage,
    runId,
    clock,
    {
      beforeAppend: (events) => overrides.beforeAppend?.(events, ctx),
      afterAppend: (events) => {
        overrides.afterAppend?.(events, ctx);
        afterAppend(events);
      },
    },
    RUN_STATE_FOLD,
  );
}

function stringVar(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The crash tests' `duringPurge` hook for a run object's purge (durable-objects/run-purge.ts); nothing when unset. */
export function purgeHook(ctx: DurableObjectState): () => void {
  return () => overrides.duringPurge?.(ctx);
}

/**
 * What a bulk job's object works with: the wiring, with the crash tests' `afterBulkAct` hook after
 * each cancel or purge of a run (durable-objects/bulk-job.ts), and its page size.
 */
export function bulkJobWiring(env: Env, ctx: DurableObjectState): { ports: Wiring; pageSize: number | undefined } {
  const wiring = wire(env);
  const hook = overrides.afterBulkAct;
  if (!hook) return { ports: wiring, pageSize: overrides.bulkPageSize };
  const open: RunHandles["open"] = (tenant, runId, placement) => {
    const handle = wiring.runHandles.open(tenant, runId, placement);
    return {
      ...handle,
      cancel: async (reason) => {
        const view = await handle.cancel(reason);
        hook(ctx);
        return view;
      },
      purge: async (deletedAt) => {
        const purged = await handle.purge(deletedAt);
        hook(ctx);
        return purged;
      },
      // A restart's act is its new run's start.
      start: async (request) => {
        const started = await handle.start(request);
        hook(ctx);
        return started;
      },
    };
  };
  return { ports: { ...wiring, runHandles: { ...wiring.runHandles, open } }, pageSize: overrides.bulkPageSize };
}
