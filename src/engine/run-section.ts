import { appendEvents, type HarnessContext } from "../harness/harness-context.ts";
import { assertNotPaused } from "../harness/pause-yield.ts";
import type { DefinitionCapabilities } from "../identity/definition-snapshot.ts";
import type { LockedVersion } from "../lwir/register-workflow-version.ts";
import type { RunCauseCode } from "../ports/run-events.ts";
import { validateJson } from "../schema/validate-json.ts";
import { recordable, resolveRecorded } from "./blob-refs.ts";
import { executeVersion } from "./execute-version.ts";
import { withinOccurrenceDeadline } from "./occurrence-deadline.ts";
import type { RegisteredWorkflow, SliceEnvironment } from "./run-environment.ts";
import { RunFailure } from "./run-failure.ts";
import { deriveRunState } from "./run-state.ts";
import { toRunFailure } from "./to-run-failure.ts";

/**
 * What {@link runSection} returns when every queued occurrence has run: the run waits for its next
 * trigger. A pause is an outcome, not an error: it is returned, and the drive loop checks for it.
 */
export const SECTION_WAITS = Object.freeze({ sectionWaits: true as const });

/** What a section's run completes with when `maxOccurrences` closes it. */
export type SectionSummary = {
  readonly occurrences: number;
  readonly completed: number;
  readonly failed: number;
  readonly lastOutput: unknown;
};

/**
 * Runs a section's queued occurrences one after another, each executing the locked body with the
 * trigger's payload as input under its own step paths (`o<k>/…`). The log decides everything, so a
 * crash resumes the occurrence in flight (its finished steps replay) and an occurrence that failed
 * under `onBodyFailure: "continue"` stays failed and the section stays armed. Under `"end"` (the
 * default) a failed occurrence fails the run with the occurrence's cause. An occurrence past
 * `onTrigger.occurrenceTimeoutMs` fails as `occurrence_timeout`, under the same policy.
 */
export async function runSection(args: {
  env: SliceEnvironment;
  ctx: HarnessContext;
  workflow: RegisteredWorkflow;
  capabilities: DefinitionCapabilities;
  locked: LockedVersion;
}): Promise<SectionSummary | typeof SECTION_WAITS> {
  const { env, ctx, capabilities } = args;
  const policy = capabilities.snapshot.section?.onBodyFailure ?? "end";
  const max = capabilities.snapshot.section?.maxOccurrences;
  const occurrenceTimeoutMs = capabilities.snapshot.section?.occurrenceTimeoutMs;
  for (;;) {
    let events = await env.log.all();
    const state = deriveRunState(events);
    const occurrences = state.occurrences;
    const settled = occurrences.filter((o) => o.status === "completed" || o.status === "failed");
    // A crash between a failed occurrence and the run's end: the recorded policy decides, as it did live.
    const ending = settled.find((o) => o.status === "failed" && o.rearmed === false);
    if (ending)
      throw new RunFailure(
        (ending.cause?.code ?? "step_failed") as RunCauseCode,
        `Occurrence ${ending.occurrenceId} failed: ${ending.cause?.message ?? "unknown cause"}`,
        { occurrenceId: ending.occurrenceId },
      );
    if (max !== undefined && settled.length >= max) {
      const last = settled.at(-1);
      return {
        occurrences: settled.length,
        completed: settled.filter((o) => o.status === "completed").length,
        failed: settled.filter((o) => o.status === "failed").length,
        // The recorded value, read back: a large output is a blob reference, and tags are decoded.
        lastOutput: last?.status === "completed" ? await resolveRecorded(last.output ?? null, env.blobs) : null,
      };
    }
    const next = occurrences.find((o) => o.status === "queued" || o.status === "running");
    if (!next) return SECTION_WAITS;
    if (next.status === "queued") {
      // Paused: the occurrence stays queued (with any triggered after it, in order) until the resume.
      assertNotPaused(ctx);
      events = [...events, ...(await appendEvents(ctx, [{ type: "OccurrenceStarted", payload: { occurrenceId: next.occurrenceId } }]))];
    }
    try {
      const output = await withinOccurrenceDeadline(
        { ctx, events, occurrenceId: next.occurrenceId, timeoutMs: occurrenceTimeoutMs },
        (bounded) => runOccurrence({ ...args, ctx: bounded }, next.occurrenceId, next.input, state),
      );
      await appendEvents(ctx, [
        {
          type: "OccurrenceCompleted",
          payload: { occurrenceId: next.occurrenceId, output: await recordable(output, env.blobs, ctx.redact?.value) },
        },
      ]);
    } catch (error) {
      const failure = toRunFailure(error);
      if (!failure) throw error;
      await appendEvents(ctx, [
        {
          type: "OccurrenceFailed",
          payload: {
            occurrenceId: next.occurrenceId,
            causeCode: failure.causeCode,
            message: failure.message,
            rearmed: policy === "continue",
          },
        },
      ]);
      if (policy !== "continue")
        throw new RunFailure(failure.causeCode, `Occurrence ${next.occurrenceId} failed: ${failure.message}`, {
          occurrenceId: next.occurrenceId,
          ...(failure.details !== undefined ? { cause: failure.details } : {}),
        });
    }
  }
}

async function runOccurrence(
  args: Parameters<typeof runSection>[0],
  occurrenceId: string,
  input: unknown,
  state: ReturnType<typeof deriveRunState>,
): Promise<unknown> {
  const { capabilities } = args;
  const inputCheck = validateJson(capabilities.inputSchema, input, "input.invalid");
  if (!inputCheck.valid)
    throw new RunFailure("input_schema_error", `The payload of ${occurrenceId} does not match the input schema`, {
      findings: inputCheck.findings,
    });
  const output = await executeVersion({
    env: args.env,
    ctx: args.ctx,
    workflow: args.workflow,
    capabilities,
    locked: args.locked,
    input,
    cycle: 1,
    state,
    scope: `${occurrenceId}/`,
  });
  const outputCheck = validateJson(capabilities.outputSchema, output, "output.invalid");
  if (!outputCheck.valid)
    throw new RunFailure("output_schema_error", `The output of ${occurrenceId} does not match the output schema`, {
      findings: outputCheck.findings,
    });
  return output;
}
