import { MemoryBlobStore } from "../adapters/memory/memory-blob-store.ts";
import { MemoryEventLog } from "../adapters/memory/memory-event-log.ts";
import { MemoryMemoryStore } from "../adapters/memory/memory-memory-store.ts";
import { MemoryRunIndex } from "../adapters/memory/memory-run-index.ts";
import { MemoryVersionStore } from "../adapters/memory/memory-version-store.ts";
import { JustBashSandbox } from "../adapters/sandbox-isolate/just-bash-sandbox.ts";
import { catalogOf } from "../engine/run-environment.ts";
import { driveToEnd, indexStarted, noAlarm, startRun } from "../engine/run-host.ts";
import { readRunResultOfState } from "../engine/run-result.ts";
import { RUN_STATE_FOLD, readRunState } from "../engine/run-state.ts";
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
 * are kept, so running a run id again replays it.
 */
export class MemoryWorld implements World {
  readonly versions = new MemoryVersionStore();
  readonly runs = new MemoryRunIndex();
  /** Each run's own blob store, by tenant and run id (a run reads only blobs it stored). */
  readonly blobs = new Map<string, MemoryBlobStore>();
  readonly logs = new Map<string, MemoryEventLog>();
  /** The memory stores of the default sandbox's sessions (a given sandbox brings its own). */
  readonly memory = new MemoryMemoryStore();
  private readonly models: ModelResolver;
  private readonly clock: Clock;
  private readonly sandbox: Sandbox;
  private readonly sliceMs: number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly env: unknown;
  private readonly secrets: SecretStore | undefined;

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
  }) {
    this.models = options.models;
    this.clock = options.clock ?? systemClock;
    this.sandbox = options.sandbox ?? new JustBashSandbox({ memory: this.memory });
    this.sliceMs = options.sliceMs ?? 60_000;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.env = options.env;
    this.secrets = options.secrets;
  }

  /** A run's event log, oldest first (empty for a run id never run here). */
  async events(runId: string): Promise<RunEvent[]> {
    return (await this.logs.get(runId)?.all()) ?? [];
  }

  async run(request: RunRequest): Promise<RunResult> {
    const log = this.logs.get(request.runId) ?? new MemoryEventLog(request.runId, this.clock, RUN_STATE_FOLD);
    this.logs.set(request.runId, log);
    const workflows = catalogOf([{ definition: request.workflow, tools: request.tools }]);
    const ports = { runId: request.runId, log, runs: this.runs, clock: this.clock, alarm: noAlarm, workflows };
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
    const blobsKey = JSON.stringify([request.tenant, request.runId]);
    const blobs = this.blobs.get(blobsKey) ?? new MemoryBlobStore();
    this.blobs.set(blobsKey, blobs);
    await driveToEnd({
      ...ports,
      versions: this.versions,
      blobs,
      sandbox: this.sandbox,
      models: this.models,
      sleep: this.sleep,
      sliceMs: this.sliceMs,
      ...(this.env !== undefined ? { bindings: this.env } : {}),
      ...(this.secrets ? { secrets: this.secrets } : {}),
    });
    return readRunResultOfState(request.runId, (await readRunState(log)).state, blobs);
  }
}
