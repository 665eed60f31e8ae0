import { MemoryBlobStore } from "../adapters/memory/memory-blob-store.ts";
import { MemoryDefinitionApprovals } from "../adapters/memory/memory-definition-approvals.ts";
import { MemoryEventLog } from "../adapters/memory/memory-event-log.ts";
import { MemoryMemoryStore } from "../adapters/memory/memory-memory-store.ts";
import { MemoryRunIndex } from "../adapters/memory/memory-run-index.ts";
import { MemorySealedRows } from "../adapters/memory/memory-sealed-rows.ts";
import { MemoryVersionStore } from "../adapters/memory/memory-version-store.ts";
import { JustBashSandbox } from "../adapters/sandbox-isolate/just-bash-sandbox.ts";
import { SealedSecretStore } from "../adapters/secrets/sealed-secret-store.ts";
import { catalogOf, type RunWiring, runEnvironment } from "../engine/run-environment.ts";
import { driveToEnd, indexStarted, noAlarm, startRun } from "../engine/run-host.ts";
import { DEFAULT_RUN_QUOTAS, type RunQuotas } from "../engine/run-quotas.ts";
import { readRunResultOfState } from "../engine/run-result.ts";
import { RUN_STATE_FOLD, readRunState } from "../engine/run-state.ts";
import { NO_CHILD_RUNS } from "../ports/child-runs.ts";
import type { Clock } from "../ports/clock.ts";
import { systemClock } from "../ports/clock.ts";
import type { ModelResolver } from "../ports/model-resolver.ts";
import type { RunEvent } from "../ports/run-events.ts";
import type { Sandbox } from "../ports/sandbox.ts";
import type { SecretStore } from "../ports/secret-store.ts";
import type { RunRequest, RunResult, World } from "../ports/world.ts";

/**
 * A {@link World} in memory: the same run host and drive loop as the Durable Object, over memory
 * adapters, so the whole compile pipeline runs in plain Node or in a unit test. Logs and versions
 * are kept, so running a run id again replays it. It is a host, like the run object: it creates
 * its runs directly (no start admission: no tenants' quotas or approvals to check in memory).
 */
export class MemoryWorld implements World {
  readonly versions = new MemoryVersionStore();
  readonly runs = new MemoryRunIndex();
  readonly approvals = new MemoryDefinitionApprovals(this.versions);
  /** Each run's own blob store, by tenant and run id (a run reads only blobs it stored). */
  readonly blobs = new Map<string, MemoryBlobStore>();
  readonly logs = new Map<string, MemoryEventLog>();
  /** The memory stores of the default sandbox's sessions (a given sandbox brings its own). */
  readonly memory = new MemoryMemoryStore();
  /** The stores above are read when a run starts (a subclass may replace one, as a test does with D1). */
  private readonly wiring: Omit<RunWiring, "workflows" | "versions" | "approvals" | "runs">;
  private readonly sleep: ((ms: number) => Promise<void>) | undefined;
  private readonly env: unknown;

  /**
   * `sleep` waits out retry backoffs; pass one that advances a fake clock in tests. `env` is what
   * tools receive as `context.env` (in a Worker, its bindings). `secrets` reveals what a
   * definition binds (without it, such runs fail closed with `secrets_unavailable`).
   */
  constructor(options: {
    models: ModelResolver;
    clock?: Clock;
    sandbox?: Sandbox;
    sliceMs?: number;
    sleep?: (ms: number) => Promise<void>;
    env?: unknown;
    secrets?: SecretStore;
    quotas?: RunQuotas;
  }) {
    this.sleep = options.sleep;
    this.env = options.env;
    this.wiring = {
      blobsFor: (owner) => this.blobStore(owner.tenant, owner.runId),
      sandbox: options.sandbox ?? new JustBashSandbox({ memory: this.memory }),
      models: options.models,
      // No key: a definition that binds secrets fails closed, as a Worker without LITTLE_SECRETS_KEY does.
      secrets: options.secrets ?? new SealedSecretStore(new MemorySealedRows(), undefined),
      clock: options.clock ?? systemClock,
      sliceMs: options.sliceMs ?? 60_000,
      runQuotas: options.quotas ?? DEFAULT_RUN_QUOTAS,
      // One workflow per run here (its catalog holds only it): a workflow that calls others runs in the Worker.
      children: NO_CHILD_RUNS,
    };
  }

  /** A run's event log, oldest first (empty for a run id never run here). */
  async events(runId: string): Promise<RunEvent[]> {
    return (await this.logs.get(runId)?.all()) ?? [];
  }

  async run(request: RunRequest): Promise<RunResult> {
    const log = this.logs.get(request.runId) ?? new MemoryEventLog(request.runId, this.wiring.clock, RUN_STATE_FOLD);
    this.logs.set(request.runId, log);
    const workflows = catalogOf([{ definition: request.workflow, tools: request.tools }]);
    const env = runEnvironment(
      { ...this.wiring, versions: this.versions, approvals: this.approvals, runs: this.runs, workflows },
      {
        runId: request.runId,
        tenant: request.tenant,
        log,
        ...(this.sleep ? { sleep: this.sleep } : {}),
        ...(this.env !== undefined ? { bindings: this.env } : {}),
      },
    );
    const ports = { ...env, alarm: noAlarm };
    // A run id seen before is not started again: its log is replayed.
    const started = await startRun(ports, {
      runId: request.runId,
      workflowId: request.workflow.id,
      input: request.input,
      trigger: request.trigger,
      tenant: request.tenant,
      ...(request.lwir !== undefined ? { lwir: request.lwir } : {}),
    });
    if (started.outcome === "created") await indexStarted(ports);
    await driveToEnd(env);
    return readRunResultOfState(request.runId, (await readRunState(log)).state, env.blobs);
  }

  private blobStore(tenant: string, runId: string): MemoryBlobStore {
    const key = JSON.stringify([tenant, runId]);
    const blobs = this.blobs.get(key) ?? new MemoryBlobStore();
    this.blobs.set(key, blobs);
    return blobs;
  }
}
