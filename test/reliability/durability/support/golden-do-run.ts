import { catalogOf } from "../../../../src/engine/run-environment.ts";
import type { RunEvent } from "../../../../src/ports/run-events.ts";
import type { RunView } from "../../../../src/ports/run-handle.ts";
import { overrideWiring, type WiringOverrides } from "../../../../src/wiring.ts";
import { runStub } from "../../../support/drive.ts";
import { driveThroughFaults } from "./drive-through-faults.ts";
import { GOLDEN_INPUT, GOLDEN_WORKFLOW_ID, type GoldenRig, goldenRig } from "./golden-workflow.ts";

/** One golden run in its Durable Object, driven alarm by alarm to its end. */
export type GoldenOutcome = {
  view: RunView;
  events: RunEvent[];
  deliveries: Map<string, number>;
  rig: GoldenRig;
  /** Alarm handlers that threw (workerd retries them). */
  alarmErrors: number;
  /** The seqs of each durable append, in order (the engine writes some events in one batch). */
  batches: number[][];
};

/**
 * Runs the golden workflow as run `runId` with fresh counters and the given append hooks (crash
 * injection), resuming through aborts with fresh stubs and the object's own alarms.
 */
export async function runGolden(
  runId: string,
  hooks: Pick<WiringOverrides, "beforeAppend" | "afterAppend"> = {},
  maxAlarms = 40,
  /** Replaces wired pieces built from the rig (fault injection). */
  wrap: (wired: Required<Pick<WiringOverrides, "models" | "workflows">>) => WiringOverrides = (wired) => wired,
): Promise<GoldenOutcome> {
  const rig = goldenRig();
  const batches: number[][] = [];
  overrideWiring({
    ...wrap({ models: rig.models, workflows: catalogOf([rig.catalogEntry]) }),
    ...hooks,
    afterAppend: (events, ctx) => {
      batches.push(events.map((e) => e.seq));
      hooks.afterAppend?.(events, ctx);
    },
  });
  // A crash inside start (its RunRequested append) rejects the call; its alarm is already armed.
  await runStub(runId)
    .start({ runId, workflowId: GOLDEN_WORKFLOW_ID, input: GOLDEN_INPUT, trigger: { kind: "http" } })
    .catch(() => undefined);
  const { view, alarmErrors } = await driveThroughFaults(runId, maxAlarms);
  const events = await runStub(runId).events({ limit: 10_000 });
  return { view, events, deliveries: maskKeys(rig.sink.deliveries, runId), rig, alarmErrors, batches };
}

/** Sink keys with the run id masked, so two runs' deliveries compare. */
export function maskKeys(deliveries: ReadonlyMap<string, number>, runId: string): Map<string, number> {
  return new Map([...deliveries].map(([key, n]) => [key.replaceAll(runId, "<run>"), n]));
}
