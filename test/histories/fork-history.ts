/**
 * The saved history of a fork (`fork-reuse.json`): a three-step run of the seed workflow, then a
 * fork that changes the last step's prompt. The file holds both logs: the fork's is what is
 * replayed; the source's is what its memo is read from (the `SourceRuns` port), as in the Worker.
 * Recorded by `record-fork.test.ts` (VITE_LITTLE_RECORD_HISTORIES=1), replayed by
 * test/reliability/durability/fork-history.test.ts.
 */

import { MemoryBlobStore } from "../../src/adapters/memory/memory-blob-store.ts";
import { MemoryEventLog } from "../../src/adapters/memory/memory-event-log.ts";
import { MemoryVersionStore } from "../../src/adapters/memory/memory-version-store.ts";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import type { RegisteredWorkflow } from "../../src/engine/run-environment.ts";
import { summarizeTicketDefinition } from "../../src/examples/support-summarize-ticket.ts";
import { snapshotDefinition } from "../../src/identity/definition-snapshot.ts";
import { LWIR_VALIDATOR_ID } from "../../src/identity/lwir-validator-id.ts";
import { contentAddress } from "../../src/identity/workflow-version.ts";
import type { ModelResolver } from "../../src/ports/model-resolver.ts";
import type { NewRunEvent, RunEvent, RunEventPayloads } from "../../src/ports/run-events.ts";
import type { SourceRuns } from "../../src/ports/source-runs.ts";
import { SCHEMA_NORMALIZER } from "../../src/schema/normalize-schema.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { driveLog, ManualClock, RefusingSandbox, requestEvent } from "../reliability/durability/support/log-driver.ts";
import { threeStepLwir } from "../support/three-step-lwir.ts";
import type { SavedHistory } from "./record-scenario.ts";

export const FORK_SCENARIO = "fork-reuse";
export const SOURCE_RUN_ID = "run_history_fork_source";
export const FORK_RUN_ID = "run_history_fork";
export const seedWorkflow: RegisteredWorkflow = { definition: defineWorkflow(summarizeTicketDefinition), tools: {} };
const INPUT = { ticketId: "T-3", transcript: "Two invoices arrived for one order." };

/** A saved fork history: the fork's log, and its source's. */
export type ForkHistory = SavedHistory & { readonly source: { readonly runId: string; readonly events: RunEvent[] } };

/** The fork's LWIR: the source's with the last step's prompt changed. */
export async function forkLwir(): Promise<Record<string, unknown>> {
  const lwir = (await threeStepLwir(seedWorkflow)) as { steps: { id: string; with: Record<string, unknown> }[] };
  return {
    ...lwir,
    steps: lwir.steps.map((s) => (s.id === "report" ? { ...s, with: { ...s.with, prompt: `${s.with.prompt}\nOne sentence.` } } : s)),
  };
}

/** The source's log (its RunRequested carries its LWIR) as the SourceRuns port, and a version store holding its version and definition. */
export async function sourceWorld(source: readonly RunEvent[]): Promise<{ sourceRuns: SourceRuns; versions: MemoryVersionStore }> {
  const versions = new MemoryVersionStore();
  const requested = source.find((e) => e.type === "RunRequested");
  const registered = source.find((e) => e.type === "WorkflowVersionRegistered");
  if (requested?.type !== "RunRequested" || registered?.type !== "WorkflowVersionRegistered")
    throw new Error(`not a source log: ${JSON.stringify(source.slice(-2))}`);
  await versions.putVersion(contentAddress(requested.payload.lwir));
  const { snapshot } = await snapshotDefinition(seedWorkflow.definition, seedWorkflow.tools);
  await versions.putDefinition(snapshot, registered.payload.definitionHash);
  const blobs = new MemoryBlobStore();
  return { sourceRuns: { events: async () => [...source], blobs: () => blobs }, versions };
}

/** A request as the run host writes it today (schema normalizer and LWIR validator named), unlike the older histories'. */
function request(lwir: unknown, extra: Partial<RunEventPayloads["RunRequested"]> = {}): NewRunEvent {
  const base = requestEvent(seedWorkflow.definition.id, INPUT, lwir) as NewRunEvent<"RunRequested">;
  return {
    type: "RunRequested",
    payload: { ...base.payload, schemaNormalizer: SCHEMA_NORMALIZER, lwirValidator: LWIR_VALIDATOR_ID, ...extra },
  };
}

/** The fork's request: the edited LWIR, the source's input, and the memo naming the source. */
export async function forkRequest(): Promise<NewRunEvent> {
  return request(await forkLwir(), {
    trigger: { kind: "fork", id: SOURCE_RUN_ID },
    memo: { relation: "fork", sourceRunId: SOURCE_RUN_ID },
  });
}

/** Records both logs with the offline model (deterministic) and an injected clock. */
export async function recordForkHistory(): Promise<ForkHistory> {
  const models: ModelResolver = new EnvModelResolver({ mode: "offline", secrets: {} });
  const clock = new ManualClock();
  const sourceLog = new MemoryEventLog(SOURCE_RUN_ID, clock);
  await sourceLog.append([request(await threeStepLwir(seedWorkflow))]);
  await driveLog(sourceLog, { runId: SOURCE_RUN_ID, registered: seedWorkflow, models, sandbox: new RefusingSandbox(), clock });
  const source = await sourceLog.all();
  const forkLog = new MemoryEventLog(FORK_RUN_ID, clock);
  await forkLog.append([await forkRequest()]);
  await driveLog(forkLog, {
    runId: FORK_RUN_ID,
    registered: seedWorkflow,
    models,
    sandbox: new RefusingSandbox(),
    clock,
    ...(await sourceWorld(source)),
  });
  return {
    format: "little-history@1",
    scenario: FORK_SCENARIO,
    covers: ["fork: steps whose content key is unchanged reuse the source's results (StepSucceeded.reused)", "ai.generate"],
    runId: FORK_RUN_ID,
    recordedWith: "VITE_LITTLE_RECORD_HISTORIES=1 npx vitest run --project workers test/histories/record-fork.test.ts",
    events: await forkLog.all(),
    source: { runId: SOURCE_RUN_ID, events: source },
  };
}
