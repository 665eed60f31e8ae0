import { digestJson, digestPrefix } from "../../json/digest.ts";
import type { NewRunEvent } from "../../ports/run-events.ts";
import type { SignalRequest, SignalResult, SignalView } from "../../ports/run-handle.ts";
import { type JsonSchema, LEGACY_SCHEMA_NORMALIZER, normalizeSchema, type SchemaNormalizerId } from "../../schema/normalize-schema.ts";
import { validateJson } from "../../schema/validate-json.ts";
import { RunTerminatedError } from "../../sdk/errors/run-terminated-error.ts";
import { type SignalDeclaration, sortedSignals } from "../../sdk/signals.ts";
import { type RunState, readRunState, type SignalProgress, type StepWait } from "../run-state.ts";
import { nextSignalFor, signalOutput } from "../steps/wait-signal.ts";
import { appendWithAnswer, type WaitAnswer } from "./answer-waiting-step.ts";
import type { RunHostPorts } from "./host-ports.ts";

/**
 * Takes a signal for the run (docs/waits.md). Checked first, so a refusal stores nothing: an ended
 * run (`run_ended`), a name the workflow does not declare (`signal_unknown`, naming the declared
 * ones), a payload its schema refuses (`signal_payload_invalid`, with findings). A signal `id`
 * seen before answers that signal again (one delivery); with another name or payload it is
 * `signal_id_conflict`. Then `SignalReceived` is appended — the log's append returns once it is
 * synced, so the signal is durable before the sender is answered — and the run is woken when an
 * open `wait.signal` takes it (else it stays buffered for the first wait that names it).
 */
export async function sendSignal(ports: RunHostPorts, request: SignalRequest): Promise<SignalResult> {
  const before = (await readRunState(ports.log)).state;
  if (!before.request) return { ok: false, code: "run_not_found", message: "No such run" };
  const declared = sortedSignals(ports.workflows.get(before.request.workflowId)?.definition.signals);
  const normalizer = before.request.schemaNormalizer ?? LEGACY_SCHEMA_NORMALIZER;
  const declaration = declared.find(([name]) => name === request.name)?.[1];
  // Normalized before the state is read again: it awaits, and the checks and the append below must see one state.
  const schema = declaration
    ? await payloadSchema(declaration, `${before.request.workflowId}.signals.${request.name}`, normalizer)
    : undefined;
  const state = (await readRunState(ports.log)).state;
  const signalId = request.id ?? generatedId(ports, request);
  const seen = state.signals.get(signalId);
  if (seen) {
    if (seen.name === request.name && digestJson(seen.payload ?? null) === digestJson(request.payload ?? null))
      return { ok: true, created: false, signal: signalView(seen) };
    return {
      ok: false,
      code: "signal_id_conflict",
      message: `Signal ${signalId} was sent before with another name or payload; send a new id for another signal`,
    };
  }
  if (state.terminal) return { ok: false, code: "run_ended", message: `The run has ended (${state.status}); it takes no more signals` };
  if (schema === undefined) {
    const names = declared.map(([name]) => name);
    return {
      ok: false,
      code: "signal_unknown",
      message:
        names.length === 0
          ? `The workflow "${state.request?.workflowId}" declares no signals, so "${request.name}" cannot be sent`
          : `The workflow "${state.request?.workflowId}" declares no signal "${request.name}"; it declares ${names.map((n) => `"${n}"`).join(", ")}`,
      details: { declared: names },
    };
  }
  const check = validateJson(schema, request.payload, "signal.payload_invalid");
  if (!check.valid)
    return {
      ok: false,
      code: "signal_payload_invalid",
      message: `The payload does not match the schema of signal "${request.name}"`,
      details: { findings: [...check.findings] },
    };
  const message: NewRunEvent = { type: "SignalReceived", payload: { signalId, name: request.name, payload: request.payload } };
  // The waiting step takes it in the same append when nothing else drives the run (answer-waiting-step.ts).
  const answered = await appendWithAnswer(ports, message, (now, at) =>
    answerOfWait(now, { signalId, name: request.name, payload: request.payload, receivedAt: at }, at),
  );
  if (!answered) {
    // The alarm is armed in the append's own turn, so a crash cannot keep a durable signal from its wait.
    const appended = ports.log.append([message]);
    if (awaitedNow(state, request.name)) await ports.alarm.wakeIn(0);
    try {
      await appended;
    } catch (error) {
      // A cancel (or the run's end) landed since the checks above: refused as it would be now, nothing stored.
      if (error instanceof RunTerminatedError)
        return { ok: false, code: "run_ended", message: `The run has ended; it takes no more signals` };
      throw error;
    }
  }
  const after = (await readRunState(ports.log)).state;
  const received = after.signals.get(signalId) as SignalProgress;
  return { ok: true, created: true, signal: signalView(received) };
}

/**
 * The step a signal ends at once: the run's only open `wait.signal`, when it names the signal and
 * has not timed out; it takes what it would take from the log (its first unconsumed signal, this
 * one unless an earlier one is still buffered). Several open waits are left to the slice, whose
 * order decides which takes what.
 */
function answerOfWait(state: RunState, received: SignalProgress, at: number): WaitAnswer | null {
  const open = [...state.stepWaits].filter(([, wait]) => wait.reason === "signal");
  if (open.length !== 1) return null;
  const [stepPath, wait] = open[0] as [string, StepWait & { reason: "signal" }];
  const names = new Set(wait.signals.map((s) => s.name));
  const step = state.steps.get(stepPath);
  if (!names.has(received.name) || wait.until <= at || !step?.started) return null;
  if (step.deadline !== undefined && step.deadline <= at) return null;
  // A signal the step consumed before a crash took its StepSucceeded with it is its answer still.
  const consumed = [...state.signals.values()].find((s) => s.consumedBy === stepPath);
  if (consumed) return { stepPath, attempt: step.attempt, between: [], output: signalOutput(consumed) };
  const taken = nextSignalFor(state, names) ?? received;
  return {
    stepPath,
    attempt: step.attempt,
    between: [{ type: "SignalConsumed", payload: { signalId: taken.signalId, stepPath } }],
    output: signalOutput(taken),
  };
}

/**
 * A declared payload schema, normalized once per isolate and normalizer: a definition is code, so
 * its declaration object is the same until a deploy (converting a zod schema costs milliseconds).
 */
const normalized = new WeakMap<object, Map<SchemaNormalizerId, Promise<JsonSchema>>>();

function payloadSchema(declaration: SignalDeclaration, where: string, normalizer: SchemaNormalizerId): Promise<JsonSchema> {
  let byNormalizer = normalized.get(declaration);
  if (!byNormalizer) {
    byNormalizer = new Map();
    normalized.set(declaration, byNormalizer);
  }
  let schema = byNormalizer.get(normalizer);
  if (!schema) {
    schema = normalizeSchema(declaration.schema, "input", where, normalizer).then((d) => d.schema);
    // A failure is not cached: the next send tries again (and reports it).
    schema.catch(() => byNormalizer?.delete(normalizer));
    byNormalizer.set(normalizer, schema);
  }
  return schema;
}

/** A signal id when the sender gives none: unique per send (a resend without an id is another signal). */
function generatedId(ports: RunHostPorts, request: SignalRequest): string {
  return `sig_${digestPrefix(digestJson([ports.runId, request.name, ports.clock.now(), crypto.randomUUID()]), 20)}`;
}

/** Whether an open wait.signal takes this name: the run must be driven now. */
function awaitedNow(state: RunState, name: string): boolean {
  for (const wait of state.stepWaits.values()) if (wait.reason === "signal" && wait.signals.some((s) => s.name === name)) return true;
  return false;
}

/** A received signal as the API shows it. */
export function signalView(signal: SignalProgress, withPayload = false): SignalView {
  return {
    id: signal.signalId,
    name: signal.name,
    receivedAt: new Date(signal.receivedAt).toISOString(),
    consumed: signal.consumedBy !== undefined,
    ...(signal.consumedBy !== undefined ? { consumedBy: signal.consumedBy } : {}),
    ...(withPayload ? { payload: signal.payload } : {}),
  };
}
