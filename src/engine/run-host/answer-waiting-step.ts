import type { NewRunEvent } from "../../ports/run-events.ts";
import { LEGACY_SCHEMA_NORMALIZER } from "../../schema/normalize-schema.ts";
import { inlineRecordable } from "../blob-refs.ts";
import { definitionCapabilities } from "../definition-capabilities.ts";
import { withRunModelOverrides } from "../run-model-overrides.ts";
import { runRedactor } from "../run-redactor.ts";
import { type RunState, readRunState } from "../run-state.ts";
import type { RunHostPorts } from "./host-ports.ts";
import { latestRegistration } from "./index-run.ts";

/** How a message ends a waiting step: the step, its attempt, what goes between, and its output. */
export type WaitAnswer = {
  readonly stepPath: string;
  readonly attempt: number;
  /** Events between the message and the step's end (a signal's `SignalConsumed`). */
  readonly between: readonly NewRunEvent[];
  readonly output: unknown;
};

/**
 * Appends a message that a waiting step takes (a signal, a child's end) together with that step's
 * end, in one batch and one sync, so the step has ended when the sender hears back: no alarm hop
 * and no slice stand between the message and the step (the run's next steps are still the alarm's,
 * armed at once). `answer` decides from the run's state at the append's time `at` (the message
 * not yet in it) which step ends and with what, exactly as the step would from the log; null leaves it.
 *
 * Only when nothing else drives the run (the host's {@link RunHostPorts.drive} lock is free, then
 * held), the run is neither ended, paused, queued at a flow gate nor a section, its deadline has not passed, its live
 * definition still hashes to the one its version was locked to (drift is the next slice's to fail
 * closed), and its secrets can be revealed to redact the step's end as a slice would. Else nothing
 * is appended and the answer is false: the caller appends the message alone and wakes the run.
 */
export async function appendWithAnswer(
  ports: RunHostPorts,
  message: NewRunEvent,
  answer: (state: RunState, at: number) => WaitAnswer | null,
): Promise<boolean> {
  const lock = ports.drive;
  if (!lock?.free) return false;
  return lock.hold(async () => {
    const before = (await readRunState(ports.log)).state;
    if (!(await answerable(ports, before))) return false;
    const request = before.request as NonNullable<RunState["request"]>;
    const redact = await runRedactor(ports, request);
    if (redact === null) return false;
    // Read again after the awaits (a cancel or a pause may have landed meanwhile); from here to the
    // append nothing awaits, so no other command appends between the state decided on and the batch.
    const state = (await readRunState(ports.log)).state;
    const at = ports.clock.now();
    // A run queued at a flow-control gate (its slot taken back during a long wait) takes no step.
    if (state.terminal || state.paused || state.flow?.queued || pastDeadline(ports, state, at)) return false;
    const decided = answer(state, at);
    // An output too large to go inline needs a blob write (an await): the slice records it.
    const output = decided ? inlineRecordable(decided.output, redact?.value) : undefined;
    if (!decided || output === undefined) return false;
    const { stepPath, attempt } = decided;
    const ending: NewRunEvent[] = [...decided.between, { type: "StepSucceeded", payload: { stepPath, attempt, output } }];
    // Stamped with the `at` the answer quoted (a signal's receivedAt is its SignalReceived's time).
    const appended = ports.log.append([message, ...(redact ? redact(ending) : ending)], { at });
    await ports.alarm.wakeIn(0);
    await appended;
    return true;
  });
}

/** Whether a command may end a step of this run at all (see {@link appendWithAnswer}). */
async function answerable(ports: RunHostPorts, state: RunState): Promise<boolean> {
  const request = state.request;
  if (!request || state.terminal || state.paused || state.section) return false;
  const registered = ports.workflows.get(request.workflowId);
  const locked = latestRegistration(state).definitionHash;
  // A section's occurrences have deadlines of their own: its steps are left to its slices.
  if (!registered || !locked || registered.definition.onTrigger != null) return false;
  try {
    const workflow = withRunModelOverrides(registered, request.modelOverrides);
    const live = await definitionCapabilities(workflow, request.schemaNormalizer ?? LEGACY_SCHEMA_NORMALIZER);
    return live.definitionHash === locked;
  } catch {
    return false;
  }
}

/** The run's own deadline (its definition's `timeoutMs` from its request) has passed: the slice fails it. */
function pastDeadline(ports: RunHostPorts, state: RunState, at: number): boolean {
  const request = state.request;
  const timeoutMs = request ? ports.workflows.get(request.workflowId)?.definition.timeoutMs : undefined;
  return timeoutMs !== undefined && at >= state.requestedAt + timeoutMs;
}
