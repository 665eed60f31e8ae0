import { env } from "cloudflare:workers";
import { MemoryEventLog } from "../../src/adapters/memory/memory-event-log.ts";
import { IsolateSandbox } from "../../src/adapters/sandbox-isolate/isolate-sandbox.ts";
import type { EventLog } from "../../src/ports/event-log.ts";
import type { RunEvent } from "../../src/ports/run-events.ts";
import { type DriveSetup, driveLog, ManualClock, requestEvent } from "../reliability/durability/support/log-driver.ts";
import { type Scenario, type ScenarioRun, scenarioIo } from "./scenarios.ts";

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
  const setup = {
    runId,
    registered: run.registered,
    models: run.models,
    ...(run.callees ? { callees: run.callees } : {}),
    ...(run.children ? { children: run.children } : {}),
    sandbox: new IsolateSandbox({ loader: env.LOADER }),
    clock,
  };
  if (run.pause) await pausedAndResumed(log, setup, run.pause);
  else await driveLog(log, setup);
  return {
    format: "little-history@1",
    scenario: scenario.name,
    covers: scenario.covers,
    runId,
    recordedWith: RECORD_COMMAND,
    events: await log.all(),
  };
}

/**
 * Drives the run with an operator's pause landing while step `duringStep` runs (appended beside
 * the slice once the step has started, as the run object's `pause` does, and the slice's pause
 * signal aborted): the step finishes and is recorded, nothing else starts, the slice yields paused.
 * Then `RunResumed` is appended `resumeAfterMs` later and the run is driven to its end.
 */
async function pausedAndResumed(log: MemoryEventLog, setup: DriveSetup, pause: NonNullable<ScenarioRun["pause"]>): Promise<void> {
  const operator = new AbortController();
  const pausing: EventLog = {
    runId: log.runId,
    append: async (events) => {
      const appended = await log.append(events);
      const started = appended.some((e) => e.type === "StepStarted" && e.payload.stepPath.replace(/^c\d+\//, "") === pause.duringStep);
      if (started && !operator.signal.aborted) {
        await log.append([{ type: "RunPaused", payload: { by: pause.by } }]);
        operator.abort();
      }
      return appended;
    },
    all: () => log.all(),
    page: (options) => log.page(options),
    checkpoint: () => log.checkpoint(),
  };
  const first = await driveLog(pausing, { ...setup, pause: operator.signal });
  if (!first.paused) throw new Error(`the run did not pause during ${pause.duringStep} (it ended ${first.status})`);
  setup.clock.advance(pause.resumeAfterMs);
  await log.append([{ type: "RunResumed", payload: { by: pause.by } }]);
  const last = await driveLog(log, setup);
  if (last.yielded) throw new Error("the resumed run did not end");
}
