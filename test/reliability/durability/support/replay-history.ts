import type { RunEvent } from "../../../../src/ports/run-events.ts";
import type { ScenarioRun } from "../../../histories/scenarios.ts";
import { driveLog, ManualClock, preloadedLog, RefusingSandbox } from "./log-driver.ts";

/** An event as replay compares it: type and payload (time and seq are the replaying log's own). */
export type ComparedEvent = { type: string; payload: unknown };

/** What one replay did. */
export type ReplayOutcome = {
  /** Events given to the engine before it ran. */
  readonly preloaded: number;
  /** What the engine appended, in order. */
  readonly appended: ComparedEvent[];
  /** What the engine had to append to reproduce the saved history. */
  readonly expected: ComparedEvent[];
  /** Model calls answered from the log with their request hash re-checked. */
  readonly journaledModelCalls: number;
  /** Sandbox uses (bash sessions, code runs): replay must make none. */
  readonly sandboxUses: number;
};

const compared = (e: RunEvent): ComparedEvent => ({ type: e.type, payload: e.payload });

/**
 * Shallow replay: the whole history but its terminal event. Every step and session is settled in
 * the log, so the engine must append exactly the terminal event again and call nothing.
 */
export async function replayShallow(history: readonly RunEvent[], run: ScenarioRun, runId: string): Promise<ReplayOutcome> {
  return replay(history.slice(0, -1), history.slice(-1), run, runId);
}

/**
 * Deep replay: the engine gets only what it cannot recompute without calling out — the request,
 * every model and tool call record (`harness.model.*`, `harness.tool_call.*`), the events of
 * tool.call and code.run steps (their outputs come from the outside world), child runs' starts and ends, and the fixer sessions
 * that repaired code. Everything else — planner and worker sessions, registration, decisions,
 * skips, loop visits, outer-loop cycles, the ending — it must re-derive by running the workflow
 * again, answering every model call from the log after re-checking its request hash. It must
 * append exactly the events it was not given, in the saved order, and call nothing.
 */
export async function replayDeep(history: readonly RunEvent[], run: ScenarioRun, runId: string): Promise<ReplayOutcome> {
  const externalSteps = externalStepIds(history);
  const given = history.filter((e) => isGiven(e, externalSteps));
  const rest = history.filter((e) => !isGiven(e, externalSteps));
  return replay(given, rest, run, runId);
}

async function replay(given: readonly RunEvent[], expected: readonly RunEvent[], run: ScenarioRun, runId: string): Promise<ReplayOutcome> {
  const clock = new ManualClock(given[0]?.at);
  // A pinned LWIR is the program of its run: the scenario's (possibly changed) one is what is replayed.
  const program = given.map((e) =>
    e.type === "RunRequested" && run.lwir !== undefined ? ({ ...e, payload: { ...e.payload, lwir: run.lwir } } as RunEvent) : e,
  );
  const log = await preloadedLog(runId, program, clock);
  const sandbox = new RefusingSandbox();
  await driveLog(log, {
    runId,
    registered: run.registered,
    models: run.models,
    sandbox,
    clock,
    ...(run.callees ? { callees: run.callees } : {}),
    ...(run.children ? { children: run.children } : {}),
    ...(run.sourceRuns ? { sourceRuns: run.sourceRuns } : {}),
    ...(run.versions ? { versions: run.versions } : {}),
  });
  const all = await log.all();
  return {
    preloaded: given.length,
    appended: all.slice(given.length).map(compared),
    expected: expected.map(compared),
    journaledModelCalls: given.filter((e) => e.type === "harness.model.responded").length,
    sandboxUses: sandbox.uses,
  };
}

/** Step ids whose outputs came from outside (tool.call, code.run), from every LWIR the run used. */
function externalStepIds(history: readonly RunEvent[]): Set<string> {
  const ids = new Set<string>();
  const collect = (lwir: unknown) => {
    for (const step of (lwir as { steps?: { id: string; uses: string }[] } | undefined)?.steps ?? [])
      if (step.uses === "tool.call" || step.uses === "code.run") ids.add(step.id);
  };
  for (const e of history) {
    if (e.type === "RunRequested") collect((e.payload as { lwir?: unknown }).lwir);
    if (e.type === "harness.session.completed" && (e.payload as { role: string }).role === "planner")
      collect((e.payload as { output: { lwir?: unknown } }).output.lwir);
  }
  return ids;
}

/** `c2/notify@3[7]` → `notify`. */
function stepIdOf(stepPath: string): string {
  return stepPath
    .replace(/^c\d+\//, "")
    .replace(/\[[^\]]*\]$/, "")
    .replace(/@\d+$/, "");
}

function isGiven(e: RunEvent, externalSteps: ReadonlySet<string>): boolean {
  // A signal comes from outside like a request: the engine cannot re-derive it.
  if (
    e.type === "RunRequested" ||
    e.type === "SignalReceived" ||
    e.type.startsWith("harness.model.") ||
    e.type.startsWith("harness.tool_call.")
  )
    return true;
  // A flow-control limiter's answers (queued, admitted) come from the key's limiter object, outside the run.
  if (e.type === "FlowQueued" || e.type === "FlowAdmitted") return true;
  // An operator's pause and resume come from outside the run, like a signal.
  if (e.type === "RunPaused" || e.type === "RunResumed") return true;
  // A child run's start and end are the outside world's (its own run object): the step re-runs and is answered from them.
  if (e.type === "ChildRunStarted" || e.type === "ChildRunEnded") return true;
  const p = e.payload as { stepPath?: string; role?: string };
  if (e.type.startsWith("harness.session.")) return p.role === "fixer";
  if (e.type.startsWith("Step") && p.stepPath !== undefined) return externalSteps.has(stepIdOf(p.stepPath));
  return false;
}
