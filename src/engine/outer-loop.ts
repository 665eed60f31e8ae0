import { appendEvents, type HarnessContext } from "../harness/harness-context.ts";
import type { DefinitionCapabilities } from "../identity/definition-snapshot.ts";
import { decodeTagged, encodeTagged } from "../identity/tagged-json.ts";
import type { CycleFailure, RunEventPayloads } from "../ports/run-events.ts";
import { validateJson } from "../schema/validate-json.ts";
import type { SuperviseDecision } from "../sdk/define-workflow.ts";
import { compileCycle } from "./compile-cycle.ts";
import { cycleFailureOf, failureSummary, replannable, withSucceededSteps } from "./cycle-failure.ts";
import { executeVersion } from "./execute-version.ts";
import type { RegisteredWorkflow, SliceEnvironment } from "./run-environment.ts";
import { RunFailure } from "./run-failure.ts";
import { indexRun } from "./run-host/index-run.ts";
import { runSection } from "./run-section.ts";
import { progressOf, type RunState } from "./run-state.ts";

/** What the outer loop runs over: the drive slice's environment and the run's compiled definition. */
export type OuterLoopArgs = {
  readonly env: SliceEnvironment;
  readonly ctx: HarnessContext;
  readonly workflow: RegisteredWorkflow;
  readonly capabilities: DefinitionCapabilities;
  readonly state: RunState;
  /** LWIR given with the run or pinned by an approval: run as is, so a failure is never re-planned. */
  readonly givenLwir?: unknown;
};

/** A cycle that ran to its end: the version's output, or a section's result (which has no cycles). */
type CycleEnd = { readonly output: unknown } | { readonly section: unknown };

/**
 * The outer loop (docs/runs.md): compile a cycle, run it, let `supervise` judge it. A cycle that
 * fails in a way a new plan may avoid (`REPLANNED_CAUSES`) is supervised too, as `failed`, and
 * the next cycle's planner is told the cause, the step and the error. The last cycle's failure,
 * and any other failure, ends the run with its own cause. Each decision is journaled in
 * `OuterLoopCycleCompleted`, so a resumed run goes on from the cycle it was in.
 */
export async function runOuterLoop(args: OuterLoopArgs): Promise<unknown> {
  const { env, ctx, capabilities } = args;
  const request = args.state.request as NonNullable<RunState["request"]>;
  const maxCycles = capabilities.snapshot.maxOuterCycles;
  // Crashed after supervise accepted a cycle, before the run ended: that cycle's outcome is the run's.
  const accepted = args.state.cyclesCompleted.find((c) => c.decision === "accept");
  if (accepted) return acceptedOutcome(accepted);
  // Each cycle reads the run as the log now tells it (a re-plan appends to it).
  let current = args.state;
  for (let cycle = current.cyclesCompleted.length + 1; ; cycle++) {
    let end: CycleEnd;
    try {
      end = await runCycle(args, current, cycle);
    } catch (error) {
      const failure = failureToReplan(error, args, cycle);
      if (!failure) throw error;
      await superviseFailure(args, cycle, failure);
      current = await env.run.current();
      continue;
    }
    if ("section" in end) return end.section;
    const supervise = args.workflow.definition.outerLoop?.supervise;
    if (maxCycles <= 1 || !supervise) return end.output;
    const decision = await supervised(() =>
      supervise({ cycleNumber: cycle, maxCycles, input: request.input, status: "completed", output: end.output }),
    ).catch((error: unknown) => {
      throw new RunFailure("supervise_failed", `supervise threw after cycle ${cycle}: ${messageOf(error)}`, { cycleNumber: cycle });
    });
    await appendEvents(ctx, [
      {
        type: "OuterLoopCycleCompleted",
        payload: {
          cycleNumber: cycle,
          status: "completed",
          output: encodeTagged(end.output),
          ...(decision.decision === "replan" ? { summary: decision.summary } : {}),
          decision: decision.decision,
        },
      },
    ]);
    if (decision.decision === "accept") return end.output;
    if (cycle >= maxCycles)
      throw new RunFailure("outer_loop_exhausted", `supervise asked for another plan after cycle ${cycle} of ${maxCycles}`);
    current = await env.run.current();
  }
}

/** One cycle: compile (or replay) its version, run it, check its output against the output schema. */
async function runCycle(args: OuterLoopArgs, current: RunState, cycle: number): Promise<CycleEnd> {
  const { env, ctx, workflow, capabilities } = args;
  const request = current.request as NonNullable<RunState["request"]>;
  const locked = await compileCycle({
    env,
    ctx,
    workflow,
    capabilities,
    input: request.input,
    cycle,
    recordSteps: request.schemaNormalizer !== undefined,
    priorCycles: current.cyclesCompleted,
    registered: current.registered.get(cycle),
    runStarted: current.started.has(cycle),
    ...(args.givenLwir !== undefined ? { pinnedLwir: args.givenLwir } : {}),
  });
  await indexRun(env, args.state, "running", {
    definitionHash: capabilities.definitionHash,
    versionId: locked.version.id,
    progress: progressOf(await env.run.current()),
  });
  if (workflow.definition.onTrigger) return { section: await runSection({ env, ctx, workflow, capabilities, locked }) };
  const output = await executeVersion({ env, ctx, workflow, capabilities, locked, input: request.input, cycle, state: current });
  const outputCheck = validateJson(capabilities.outputSchema, output, "output.invalid");
  if (!outputCheck.valid)
    throw new RunFailure("output_schema_error", "The workflow's output does not match its output schema", {
      findings: outputCheck.findings,
    });
  return { output };
}

/**
 * The failure when another cycle should be planned for it, else null (the run ends with it): an
 * outer loop with cycles left, a planner to ask (no given LWIR), a run not cancelled, timed out
 * or over a quota (the slice's signal), and a cause a new plan may avoid.
 */
function failureToReplan(error: unknown, args: OuterLoopArgs, cycle: number): RunFailure | null {
  const maxCycles = args.capabilities.snapshot.maxOuterCycles;
  if (maxCycles <= 1 || cycle >= maxCycles || args.givenLwir !== undefined) return null;
  if (args.ctx.signal?.aborted || args.env.signal?.aborted) return null;
  if (!args.workflow.definition.outerLoop) return null;
  return error instanceof RunFailure && replannable(error) ? error : null;
}

/**
 * A failed cycle with cycles left: `supervise` sees it (`status: "failed"`) and re-plans, or
 * accepts the failure, which ends the run with it. Journaled either way, with the failure the
 * next planner is told (its summary is supervise's, or one line naming cause, step and error).
 */
async function superviseFailure(args: OuterLoopArgs, cycle: number, failure: RunFailure): Promise<void> {
  const { ctx, capabilities } = args;
  const record = withSucceededSteps(cycleFailureOf(failure, ctx.redact), await args.env.log.all(), cycle, ctx.redact);
  const request = args.state.request as NonNullable<RunState["request"]>;
  const supervise = args.workflow.definition.outerLoop?.supervise;
  const decision: SuperviseDecision = supervise
    ? // A supervise written before failed cycles were supervised may read `output` and throw: the
      // run ends with the cycle's own failure, supervise's error noted beside it.
      await supervised(() =>
        supervise({
          cycleNumber: cycle,
          maxCycles: capabilities.snapshot.maxOuterCycles,
          input: request.input,
          status: "failed",
          output: null,
          failure: {
            causeCode: record.causeCode,
            message: record.message,
            ...(record.stepId !== undefined ? { stepId: record.stepId } : {}),
          },
        }),
      ).catch((error: unknown) => {
        throw withSuperviseError(failure, error);
      })
    : { decision: "replan", summary: "" };
  const summary = decision.decision === "replan" && decision.summary.trim() !== "" ? decision.summary : failureSummary(cycle, record);
  await appendEvents(ctx, [
    {
      type: "OuterLoopCycleCompleted",
      payload: { cycleNumber: cycle, status: "failed", output: null, summary, decision: decision.decision, failure: record },
    },
  ]);
  if (decision.decision === "accept") throw failure;
}

/** The outcome of the cycle supervise accepted: its output, or (a failed cycle) its failure again. */
function acceptedOutcome(accepted: RunEventPayloads["OuterLoopCycleCompleted"]): unknown {
  if (accepted.status === "completed") return decodeTagged(accepted.output);
  const failure = accepted.failure as CycleFailure;
  throw new RunFailure(
    failure.causeCode,
    failure.message,
    failure.details !== undefined ? decodeTagged(failure.details as Parameters<typeof decodeTagged>[0]) : undefined,
  );
}

/** Calls supervise so a synchronous throw rejects like an asynchronous one. */
async function supervised(call: () => SuperviseDecision | Promise<SuperviseDecision>): Promise<SuperviseDecision> {
  return call();
}

function messageOf(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** The failed cycle's own failure, its details noting the error supervise threw on it. */
function withSuperviseError(failure: RunFailure, error: unknown): RunFailure {
  const details = failure.details;
  const noted =
    details !== null && typeof details === "object" && !Array.isArray(details)
      ? { ...(details as Record<string, unknown>), superviseError: messageOf(error) }
      : { ...(details !== undefined ? { details } : {}), superviseError: messageOf(error) };
  return new RunFailure(failure.causeCode, failure.message, noted);
}
