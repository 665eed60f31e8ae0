/**
 * @module The run side of a restart or fork: before a step of a run with a memo would run, its
 * content key is computed over this run's definition, input and outputs so far, and compared with
 * the source's for the same step. Equal (and not a step the restart runs afresh): the source's
 * recorded output is this step's, recorded as `StepSucceeded` with `reused: { runId, seq }`, and
 * nothing is called. The source's log is read once per slice and the memo derived from it.
 */
import type { DefinitionCapabilities } from "../../identity/definition-snapshot.ts";
import type { LwirStep } from "../../lwir/types.ts";
import type { NewRunEvent, RunMemo } from "../../ports/run-events.ts";
import { recordable } from "../blob-refs.ts";
import type { SliceEnvironment } from "../run-environment.ts";
import type { RunState } from "../run-state.ts";
import { stepContentKey } from "./content-key.ts";
import { type MemoTable, memoTable } from "./memo-table.ts";
import { readSourceRun } from "./source-run.ts";

/** One memo per slice (the slice's state object): the source's log is read once, not once per step. */
const tables = new WeakMap<object, Promise<MemoTable | null>>();

export type ReuseArgs = {
  readonly env: SliceEnvironment;
  readonly capabilities: DefinitionCapabilities;
  readonly input: unknown;
  readonly state: RunState;
  readonly scope?: string;
  readonly redact?: (value: unknown) => unknown;
};

/**
 * The `StepSucceeded` that reuses the source's result for this step, with the output, or null
 * when the step must run: no memo, a section's occurrence, a loop's later visit, a step the
 * restart runs afresh, no result in the source, or a content key that differs.
 */
export async function reusedResult(
  args: ReuseArgs,
  step: LwirStep,
  stepPath: string,
  outputs: Readonly<Record<string, unknown>>,
): Promise<{ output: unknown; event: NewRunEvent } | null> {
  const memo = args.state.request?.memo;
  if (!memo || (args.scope ?? "") !== "" || stepPath.includes("@") || memo.rerun?.includes(step.id)) return null;
  const table = await tableFor(args.env, args.state.request?.tenant ?? "default", memo);
  const entry = table?.entries.get(step.id);
  if (!entry || !table) return null;
  if (stepContentKey(step, args.capabilities.snapshot, { input: args.input, steps: outputs }) !== entry.key) return null;
  const output = await recordable(entry.output, args.env.blobs, args.redact);
  const reused = { runId: table.sourceRunId, seq: entry.seq };
  return { output: entry.output, event: { type: "StepSucceeded", payload: { stepPath, attempt: 1, output, reused } } };
}

/**
 * Starts reading the source's log and version as a restart's or fork's first slice begins, so the
 * read overlaps the version's lock and registration instead of following them (the first step
 * that may reuse a result awaits the same read). Later slices read it when a step first asks.
 */
export function prefetchMemo(env: SliceEnvironment, state: RunState): void {
  const memo = state.request?.memo;
  if (!memo || state.started.size > 0) return;
  // Observed so a failed read is no unhandled rejection: the step that asks gets the failure.
  tableFor(env, state.request?.tenant ?? "default", memo).catch(() => {});
}

function tableFor(env: SliceEnvironment, tenant: string, memo: RunMemo): Promise<MemoTable | null> {
  let table = tables.get(env.run);
  if (!table) {
    table = loadTable(env, tenant, memo);
    tables.set(env.run, table);
  }
  return table;
}

async function loadTable(env: SliceEnvironment, tenant: string, memo: RunMemo): Promise<MemoTable | null> {
  const sources = env.sourceRuns;
  // A host without the port (the in-memory world) reuses nothing: every step runs, which is correct, only dearer.
  if (!sources) return null;
  const events = await sources.events(tenant, memo.sourceRunId, memo.placement);
  const source = await readSourceRun(memo.sourceRunId, events, env.versions);
  return source ? memoTable(source, sources.blobs(tenant, memo.sourceRunId)) : null;
}
