import { env } from "cloudflare:workers";
import { MemoryEventLog } from "../../src/adapters/memory/memory-event-log.ts";
import { IsolateSandbox } from "../../src/adapters/sandbox-isolate/isolate-sandbox.ts";
import type { RunEvent } from "../../src/ports/run-events.ts";
import { driveLog, ManualClock, requestEvent } from "../reliability/durability/support/log-driver.ts";
import { type Scenario, scenarioIo } from "./scenarios.ts";

/** What a saved history file holds. */
export type SavedHistory = {
  readonly format: "little-history@1";
  readonly scenario: string;
  readonly covers: readonly string[];
  readonly runId: string;
  readonly recordedWith: string;
  readonly events: RunEvent[];
};

export const RECORD_COMMAND = "node test/histories/record.ts";

/** Runs a scenario live (scripted models, real isolate sandbox, injected clock) and returns its log. */
export async function recordScenario(scenario: Scenario): Promise<SavedHistory> {
  const runId = `run_history_${scenario.name.replaceAll("-", "_")}`;
  const run = scenario.build(scenarioIo(true));
  const clock = new ManualClock();
  const log = new MemoryEventLog(runId, clock);
  const request = requestEvent(run.registered.definition.id, run.input, run.lwir);
  await log.append([run.flow ? ({ ...request, payload: { ...request.payload, flow: run.flow.gates } } as typeof request) : request]);
  // Queued behind its key, then admitted when a slot freed: the limiter's answers, appended as the run object does.
  if (run.flow) {
    await log.append([{ type: "FlowQueued", payload: run.flow.queued }]);
    clock.advance(run.flow.admittedAfterMs);
    const { kind, gate, key } = run.flow.queued;
    await log.append([{ type: "FlowAdmitted", payload: { kind, gate, key, admittedAt: clock.now() } }]);
  }
  // Sent before the run reaches its wait: buffered in the log, as the run host appends them.
  if (run.signals?.length) await log.append(run.signals.map((payload) => ({ type: "SignalReceived" as const, payload })));
  await driveLog(log, {
    runId,
    registered: run.registered,
    models: run.models,
    ...(run.callees ? { callees: run.callees } : {}),
    ...(run.children ? { children: run.children } : {}),
    sandbox: new IsolateSandbox({ loader: env.LOADER }),
    clock,
  });
  return {
    format: "little-history@1",
    scenario: scenario.name,
    covers: scenario.covers,
    runId,
    recordedWith: RECORD_COMMAND,
    events: await log.all(),
  };
}
