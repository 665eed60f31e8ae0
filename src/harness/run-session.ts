import { type generateText, type Output, type StopCondition, streamText, type ToolSet } from "ai";
import type { CallableModel } from "../ports/model-resolver.ts";

type OutputSpec = Output.Output;

import { encodeTagged } from "../identity/tagged-json.ts";
import { canonicalJson } from "../json/canonical-json.ts";
import type { Digest } from "../json/digest.ts";
import type { HarnessRole, HarnessTaskKind, RunCauseCode } from "../ports/run-events.ts";
import { CapabilityDriftError, diffManifests } from "../sdk/errors/capability-drift-error.ts";
import { RunTerminatedError } from "../sdk/errors/run-terminated-error.ts";
import { durableModel, type ModelSlotRef } from "./durable-model.ts";
import { durableTools, type HarnessTool } from "./durable-tools.ts";
import { appendEvents, type HarnessContext, SessionCursor } from "./harness-context.ts";

/** How a session ended. */
export type SessionOutcome =
  | { readonly ok: true; readonly output: unknown; readonly fixedSource?: string }
  | { readonly ok: false; readonly causeCode: RunCauseCode; readonly message: string };

/** The final result of the agent loop, as the session's interpreter sees it. */
export type LoopResult = Pick<Awaited<ReturnType<typeof generateText>>, "steps" | "text" | "output">;

/** The parts of a `streamText` result the session waits for. */
type LoopStream = {
  readonly steps: PromiseLike<LoopResult["steps"]>;
  readonly text: PromiseLike<string>;
  readonly output: PromiseLike<unknown>;
};

/** One harness session: an agent loop on the AI SDK, every call journaled. */
export type SessionSpec = {
  readonly sessionId: string;
  readonly role: HarnessRole;
  readonly kind: HarnessTaskKind;
  readonly manifest: Record<string, unknown>;
  readonly manifestHash: Digest;
  readonly stepPath?: string;
  readonly cycle?: number;
  readonly model: CallableModel;
  readonly slot: ModelSlotRef;
  readonly system: string;
  readonly prompt: string;
  readonly tools?: Readonly<Record<string, HarnessTool>>;
  readonly output?: OutputSpec;
  readonly stopWhen?: StopCondition<ToolSet> | StopCondition<ToolSet>[];
  /** Turns the loop's final result into the session's outcome. */
  readonly interpret: (result: LoopResult) => SessionOutcome;
};

/**
 * Runs (or fast-forwards) a harness session. Any session in the log, settled or not, is first
 * checked for drift (its manifest hash must equal the live one, else {@link CapabilityDriftError}).
 * A session already completed or failed then returns its recorded outcome without running; a
 * started one is replayed: recorded model and tool calls are answered from the log, only the
 * in-flight call runs again.
 */
export async function runSession(spec: SessionSpec, ctx: HarnessContext): Promise<SessionOutcome> {
  const record = ctx.journal.sessionRecord(spec.sessionId);
  // Settled sessions too: a crash between a planner's harness.session.completed and
  // WorkflowVersionRegistered must not let a changed definition compile its recorded LWIR.
  if (record?.started && record.started.manifestHash !== spec.manifestHash) {
    const stored = (record.started.manifest ?? {}) as Record<string, unknown>;
    throw new CapabilityDriftError(
      `The ${spec.role} session ${spec.sessionId}`,
      record.started.manifestHash,
      spec.manifestHash,
      diffManifests(stored, spec.manifest, canonicalJson),
    );
  }
  if (record?.completed) {
    const { output, fixedSource } = record.completed;
    return { ok: true, output, ...(fixedSource !== undefined ? { fixedSource } : {}) };
  }
  if (record?.failed) return { ok: false, causeCode: record.failed.causeCode, message: record.failed.message };
  const cursor = new SessionCursor(spec.sessionId);
  if (!record?.started) {
    // Logged with the session's first append (its first model call), before any side effect.
    cursor.holdLeading([
      {
        type: "harness.session.started",
        payload: {
          sessionId: spec.sessionId,
          role: spec.role,
          kind: spec.kind,
          manifestHash: spec.manifestHash,
          manifest: spec.manifest,
          ...(spec.stepPath !== undefined ? { stepPath: spec.stepPath } : {}),
          ...(spec.cycle !== undefined ? { cycle: spec.cycle } : {}),
        },
      },
    ]);
  }
  const outcome = await interpretedLoop(spec, ctx, cursor);
  if (outcome.ok) {
    await appendEvents(ctx, [
      ...cursor.takeLeading(),
      {
        type: "harness.session.completed",
        payload: {
          sessionId: spec.sessionId,
          role: spec.role,
          output: encodeTagged(outcome.output),
          ...(outcome.fixedSource !== undefined ? { fixedSource: outcome.fixedSource } : {}),
        },
      },
    ]);
  } else {
    await appendEvents(ctx, [
      ...cursor.takeLeading(),
      {
        type: "harness.session.failed",
        payload: { sessionId: spec.sessionId, role: spec.role, causeCode: outcome.causeCode, message: outcome.message },
      },
    ]);
  }
  return outcome;
}

/**
 * The agent loop and its interpretation. Should it end before the session's first append (a
 * throw before any model call, e.g. the slice's time is up), the held `harness.session.started`
 * is logged on its way out, so the log reads as if it had been appended up front.
 */
async function interpretedLoop(spec: SessionSpec, ctx: HarnessContext, cursor: SessionCursor): Promise<SessionOutcome> {
  // `streamText` hands a failed call to onError and rejects its promises with a generic
  // NoOutputGeneratedError; the first error reported is the one that says what went wrong.
  let streamError: { readonly error: unknown } | undefined;
  try {
    const stream = streamText({
      model: durableModel(spec.model, ctx, cursor, spec.slot, {
        role: spec.role,
        stepPath: spec.stepPath ?? null,
        structured: spec.output !== undefined,
      }),
      system: spec.system,
      prompt: spec.prompt,
      ...(spec.tools ? { tools: durableTools(spec.tools, ctx, cursor) } : {}),
      ...(spec.stopWhen ? { stopWhen: spec.stopWhen } : {}),
      ...(spec.output ? { output: spec.output } : {}),
      // Retries are the durable wrapper's job, so each attempt is journaled.
      maxRetries: 0,
      ...(ctx.signal ? { abortSignal: ctx.signal } : {}),
      onError: ({ error }) => {
        streamError ??= { error };
      },
    });
    const result = await settled(stream, spec.output !== undefined, () => streamError);
    if (cursor.fatal) throw cursor.fatal.error;
    return spec.interpret(result);
  } catch (caught) {
    const error = cursor.fatal ? cursor.fatal.error : (streamError?.error ?? caught);
    const leading = cursor.takeLeading();
    // A run that has already ended (cancelled meanwhile) takes nothing more; the loop's own error is the one to report.
    if (leading.length > 0)
      await appendEvents(ctx, leading).catch((flushError: unknown) => {
        if (!(flushError instanceof RunTerminatedError)) throw flushError;
      });
    throw error;
  }
}

/** Waits for the loop to end and reads what the interpreter needs; a stream error is rethrown as itself. */
async function settled(
  stream: LoopStream,
  withOutput: boolean,
  reported: () => { readonly error: unknown } | undefined,
): Promise<LoopResult> {
  const steps = await stream.steps;
  // A provider error part ends a step without throwing; it must fail the session, not pass as an empty answer.
  const error = reported();
  if (error) throw error.error;
  const text = await stream.text;
  // Parsed only when the session asked for structured output (a parse failure is NoObjectGeneratedError).
  const output = withOutput ? await stream.output : undefined;
  return { steps, text, output };
}
