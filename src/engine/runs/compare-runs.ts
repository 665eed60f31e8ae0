/**
 * @module Two runs side by side (docs/runs.md, "Compare"): per step, whether it was reused or ran,
 * both outputs with a JSON diff, duration, tokens and cost. Built on the engine's fold of each
 * run's log; what the API's `GET /v1/runs/{a}/compare/{b}` and the inspector's compare page show.
 */
import type { LwirStep } from "../../lwir/types.ts";
import type { RunDeletions } from "../../ports/run-deletions.ts";
import type { RunEvent } from "../../ports/run-events.ts";
import type { RunIndex } from "../../ports/run-index.ts";
import type { RunStatus } from "../../ports/run-status.ts";
import type { SourceRuns } from "../../ports/source-runs.ts";
import type { VersionStore } from "../../ports/version-store.ts";
import { resolveRecorded } from "../blob-refs.ts";
import { type JsonChange, jsonDiff } from "../memo/json-diff.ts";
import { readSourceRun, type SourceRun } from "../memo/source-run.ts";
import { NO_USAGE, type StepUsage, usageByStepPath } from "../memo/step-usage.ts";
import { deriveRunState } from "../run-state.ts";
import { indexedRun } from "./fork-source.ts";

export type ComparePorts = {
  readonly runs: RunIndex;
  readonly sourceRuns: SourceRuns;
  readonly versions: VersionStore;
  readonly deletions: Pick<RunDeletions, "tombstone">;
};

export type StepSide = {
  readonly status: "succeeded" | "failed" | "skipped" | "running" | "not_run";
  /** The source run's event this step's result was taken from (a restart or fork). */
  readonly reused?: { readonly runId: string; readonly seq: number };
  readonly output?: unknown;
  /** From the step's scheduling to its end; null when it has not ended (0 for a reused step). */
  readonly durationMs: number | null;
  readonly usage: StepUsage;
};

export type StepComparison = {
  readonly stepId: string;
  readonly uses: LwirStep["uses"];
  readonly a: StepSide;
  readonly b: StepSide;
  /** The outputs differ (or one side has none). */
  readonly changed: boolean;
  readonly diff: readonly JsonChange[];
  readonly diffOmitted: number;
};

export type RunSide = {
  readonly runId: string;
  readonly status: RunStatus;
  readonly versionId: string | null;
  readonly usage: StepUsage;
  readonly restartOf?: string;
  readonly forkOf?: string;
};

export type RunComparison = { readonly a: RunSide; readonly b: RunSide; readonly steps: readonly StepComparison[] };

/** Compares the tenant's runs `a` and `b` (404 `run_not_found` for either, another tenant's included; 410 `run_deleted`). */
export async function compareRuns(ports: ComparePorts, tenant: string, a: string, b: string): Promise<RunComparison> {
  const [left, right] = await Promise.all([readSide(ports, tenant, a), readSide(ports, tenant, b)]);
  const steps = [...(right.source?.lwir.steps ?? []), ...(left.source?.lwir.steps ?? [])].filter(
    (s, i, all) => all.findIndex((t) => t.id === s.id) === i,
  );
  const compared: StepComparison[] = [];
  for (const step of steps) {
    const [sa, sb] = await Promise.all([stepSide(ports, tenant, left, step.id), stepSide(ports, tenant, right, step.id)]);
    const diff = sa.output === undefined && sb.output === undefined ? { changes: [], omitted: 0 } : jsonDiff(sa.output, sb.output);
    compared.push({
      stepId: step.id,
      uses: step.uses,
      a: sa,
      b: sb,
      changed: diff.changes.length > 0,
      diff: diff.changes,
      diffOmitted: diff.omitted,
    });
  }
  return { a: runSide(left), b: runSide(right), steps: compared };
}

type Side = {
  readonly runId: string;
  readonly events: readonly RunEvent[];
  readonly source: SourceRun | null;
  readonly usage: ReadonlyMap<string, StepUsage>;
};

async function readSide(ports: ComparePorts, tenant: string, runId: string): Promise<Side> {
  const entry = await indexedRun(ports, tenant, runId);
  const events = await ports.sourceRuns.events(tenant, runId, entry.placement);
  return { runId, events, source: await readSourceRun(runId, events, ports.versions), usage: usageByStepPath(events) };
}

function runSide(side: Side): RunSide {
  const state = side.source?.state ?? deriveRunState(side.events);
  const memo = state.request?.memo;
  return {
    runId: side.runId,
    status: state.status,
    versionId: side.source?.versionId ?? null,
    usage: state.usage,
    ...(memo?.relation === "restart" ? { restartOf: memo.sourceRunId } : {}),
    ...(memo?.relation === "fork" ? { forkOf: memo.sourceRunId } : {}),
  };
}

async function stepSide(ports: ComparePorts, tenant: string, side: Side, stepId: string): Promise<StepSide> {
  const source = side.source;
  if (!source) return { status: "not_run", durationMs: null, usage: NO_USAGE };
  const path = `c${source.cycle}/${stepId}`;
  const usage = side.usage.get(path) ?? NO_USAGE;
  const mine = side.events.filter((e) => "stepPath" in e.payload && e.payload.stepPath === path);
  const first = mine.find((e) => e.type === "StepScheduled" || e.type === "StepStarted" || e.type === "StepSucceeded");
  const end = mine.findLast((e) => e.type === "StepSucceeded" || e.type === "StepFailed" || e.type === "StepSkipped");
  const durationMs = first && end ? end.at - first.at : null;
  if (source.state.stepOutputs.has(path)) {
    const done = mine.findLast((e) => e.type === "StepSucceeded");
    const reused = done?.type === "StepSucceeded" ? done.payload.reused : undefined;
    const output = await resolveRecorded(source.state.stepOutputs.get(path), ports.sourceRuns.blobs(tenant, side.runId));
    return { status: "succeeded", ...(reused ? { reused } : {}), output, durationMs, usage };
  }
  if (source.state.skipped.has(path)) return { status: "skipped", durationMs, usage };
  if (source.state.steps.get(path)?.failed) return { status: "failed", durationMs, usage };
  return { status: first ? "running" : "not_run", durationMs, usage };
}
