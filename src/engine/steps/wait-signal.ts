import { appendEvents, SliceYieldSignal } from "../../harness/harness-context.ts";
import type { WaitSignalStep } from "../../lwir/types.ts";
import type { AwaitedSignal } from "../../ports/run-events.ts";
import type { RunState, SignalProgress } from "../run-state.ts";
import { StepAttemptError } from "../step-failure.ts";
import type { StepAttempt } from "./step-context.ts";

/** A wait.signal's output: the signal that came first, or the timeout. */
export type SignalWaitOutput =
  | { readonly signal: string; readonly payload: unknown; readonly receivedAt: string; readonly timedOut: false }
  | { readonly signal: null; readonly timedOut: true };

/**
 * A `wait.signal` attempt, answered from the log alone:
 * 1. a signal this step already consumed (`SignalConsumed`, a crash before its `StepSucceeded`) is its answer again;
 * 2. else the first received, unconsumed signal it names (first in, first out; buffered before the wait included) is consumed;
 * 3. else, past the deadline of its `WaitStarted`, it times out;
 * 4. else the slice yields until the deadline: a signal's arrival (host: `sendSignal`) wakes the run sooner.
 */
export async function runWaitSignal(step: WaitSignalStep, a: StepAttempt): Promise<SignalWaitOutput> {
  const { ctx, stepPath, attempt } = a;
  const state = await a.env.run.current();
  const names = new Set(step.with.signals);
  const consumed = find(state, (s) => s.consumedBy === stepPath);
  if (consumed) return signalOutput(consumed);
  const open = state.stepWaits.get(stepPath);
  let until = open?.reason === "signal" ? open.until : undefined;
  if (until === undefined) {
    until = ctx.clock.now() + step.with.timeoutMs;
    const signals = awaited(a, step.with.signals);
    await appendEvents(ctx, [{ type: "WaitStarted", payload: { stepPath, attempt, kind: "signal", until, signals } }]);
  }
  const next = nextSignalFor(await a.env.run.current(), names);
  if (next) {
    await appendEvents(ctx, [{ type: "SignalConsumed", payload: { signalId: next.signalId, stepPath } }]);
    return signalOutput(next);
  }
  if (ctx.clock.now() >= until) return { signal: null, timedOut: true };
  throw new SliceYieldSignal(until);
}

function find(state: RunState, test: (signal: SignalProgress) => boolean): SignalProgress | undefined {
  for (const signal of state.signals.values()) if (test(signal)) return signal;
  return undefined;
}

/** The signal a wait naming `names` takes next: the first received and not consumed, of those names (first in, first out). */
export function nextSignalFor(state: RunState, names: ReadonlySet<string>): SignalProgress | undefined {
  return find(state, (s) => s.consumedBy === undefined && names.has(s.name));
}

/** A wait.signal's output for the signal it took. */
export function signalOutput(signal: SignalProgress): SignalWaitOutput {
  return { signal: signal.name, payload: signal.payload, receivedAt: new Date(signal.receivedAt).toISOString(), timedOut: false };
}

/** The awaited signals with their schemas, from the definition (the binding pass checked each is declared). */
function awaited(a: StepAttempt, names: readonly string[]): AwaitedSignal[] {
  const declared = a.capabilities.snapshot.signals ?? [];
  return names.map((name) => {
    const signal = declared.find((s) => s.name === name);
    if (!signal) throw new StepAttemptError("signal_not_declared", `wait.signal ${a.stepPath}: signal "${name}" is not declared`, false);
    return { name, description: signal.description, schema: signal.schema };
  });
}
