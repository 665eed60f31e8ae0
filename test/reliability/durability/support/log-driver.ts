import { MemoryBlobStore } from "../../../../src/adapters/memory/memory-blob-store.ts";
import { MemoryDefinitionApprovals } from "../../../../src/adapters/memory/memory-definition-approvals.ts";
import { MemoryEventLog } from "../../../../src/adapters/memory/memory-event-log.ts";
import { MemoryRunIndex } from "../../../../src/adapters/memory/memory-run-index.ts";
import { MemorySealedRows } from "../../../../src/adapters/memory/memory-sealed-rows.ts";
import { MemoryVersionStore } from "../../../../src/adapters/memory/memory-version-store.ts";
import { SealedSecretStore } from "../../../../src/adapters/secrets/sealed-secret-store.ts";
import { type DriveResult, driveRun } from "../../../../src/engine/drive-run.ts";
import { catalogOf, type RegisteredWorkflow } from "../../../../src/engine/run-environment.ts";
import { DEFAULT_RUN_QUOTAS } from "../../../../src/engine/run-quotas.ts";
import { RUN_STATE_FOLD } from "../../../../src/engine/run-state.ts";
import { type ChildRuns, NO_CHILD_RUNS } from "../../../../src/ports/child-runs.ts";
import type { Clock } from "../../../../src/ports/clock.ts";
import type { EventLog } from "../../../../src/ports/event-log.ts";
import type { ModelResolver } from "../../../../src/ports/model-resolver.ts";
import type { NewRunEvent, RunEvent } from "../../../../src/ports/run-events.ts";
import type { Sandbox } from "../../../../src/ports/sandbox.ts";
import type { SourceRuns } from "../../../../src/ports/source-runs.ts";
import type { VersionStore } from "../../../../src/ports/version-store.ts";

/** A clock that only moves when told (sleeps advance it), so a run's timestamps repeat exactly. */
export class ManualClock implements Clock {
  private t: number;
  constructor(start = 1_767_225_600_000) {
    this.t = start;
  }
  now(): number {
    return this.t;
  }
  set(t: number): void {
    this.t = t;
  }
  advance(ms: number): void {
    this.t += Math.max(0, ms);
  }
}

/** Refuses every sandbox use: replay must not run code or bash. */
export class RefusingSandbox implements Sandbox {
  uses = 0;
  async openSession(): Promise<never> {
    this.uses += 1;
    throw new Error("replay opened a sandbox session");
  }
  async runCode(): Promise<never> {
    this.uses += 1;
    throw new Error("replay ran code in the sandbox");
  }
}

/** What one drive of a log needs besides the log. */
export type DriveSetup = {
  readonly runId: string;
  readonly registered: RegisteredWorkflow;
  readonly models: ModelResolver;
  readonly sandbox: Sandbox;
  readonly clock: ManualClock;
  readonly sliceMs?: number;
  readonly signal?: AbortSignal;
  /** The workflows `registered` may call (workflow.run), registered beside it. */
  readonly callees?: readonly RegisteredWorkflow[];
  /** Where its workflow.run steps start children (default: none can be started). */
  readonly children?: ChildRuns;
  /** A restart or fork: where its source run's log is read, and the version store holding the source's version. */
  readonly sourceRuns?: SourceRuns;
  readonly versions?: VersionStore;
  /** The host's pause signal: aborted when an operator pauses the run while a slice is in flight. */
  readonly pause?: AbortSignal;
};

/**
 * Drives a run's log slice after slice until the run ends, as MemoryWorld does, with the clock
 * advanced by sleeps instead of waiting. Returns the last slice's result (the run ended, or paused).
 */
export async function driveLog(log: EventLog, setup: DriveSetup, maxSlices = 50): Promise<DriveResult> {
  const stores = {
    versions: setup.versions ?? new MemoryVersionStore(),
    runs: new MemoryRunIndex(),
    blobs: new MemoryBlobStore(),
    approvals: new MemoryDefinitionApprovals(),
    secrets: new SealedSecretStore(new MemorySealedRows(), undefined),
    quotas: DEFAULT_RUN_QUOTAS,
  };
  for (let i = 0; i < maxSlices; i++) {
    const result = await driveRun({
      runId: setup.runId,
      log,
      ...stores,
      sandbox: setup.sandbox,
      models: setup.models,
      clock: setup.clock,
      workflows: catalogOf([setup.registered, ...(setup.callees ?? [])]),
      children: setup.children ?? NO_CHILD_RUNS,
      ...(setup.sourceRuns ? { sourceRuns: setup.sourceRuns } : {}),
      sleep: async (ms) => setup.clock.advance(ms),
      sliceMs: setup.sliceMs ?? 600_000,
      ...(setup.signal ? { signal: setup.signal } : {}),
      ...(setup.pause ? { pause: setup.pause } : {}),
    });
    // Ended, or paused: only a resume (RunResumed, from outside) drives a paused run again.
    if (!result.yielded || result.paused) return result;
    if (result.wakeAt !== undefined) setup.clock.set(Math.max(setup.clock.now(), result.wakeAt));
  }
  throw new Error(`run ${setup.runId} did not end within ${maxSlices} slices`);
}

/**
 * A memory log holding `events` as they were (each appended at its own recorded time). It
 * checkpoints the run state every few events, as the run object's log does (every 1,000): a
 * replay must append the same events whether or not checkpoints are written beside them.
 */
export async function preloadedLog(runId: string, events: readonly RunEvent[], clock: ManualClock): Promise<MemoryEventLog> {
  const log = new MemoryEventLog(runId, clock, { ...RUN_STATE_FOLD, every: 5 });
  for (const e of events) {
    clock.set(e.at);
    await log.append([{ type: e.type, payload: e.payload } as NewRunEvent]);
  }
  return log;
}

/**
 * The `RunRequested` a run starts from. Written without `schemaNormalizer`, like a log from before
 * schema normalizer @2, so the run keeps @1 (docs/identity.md): the saved histories are recorded
 * with it and keep the legacy path replaying (saved-histories.test.ts checks that one does).
 * Runs started through the run host (`startRun`) record @2.
 */
export function requestEvent(workflowId: string, input: unknown, lwir?: unknown): NewRunEvent {
  return {
    type: "RunRequested",
    payload: { workflowId, input, trigger: { kind: "programmatic" }, tenant: "default", ...(lwir !== undefined ? { lwir } : {}) },
  } as NewRunEvent;
}
