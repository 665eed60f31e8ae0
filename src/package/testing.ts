/**
 * `little-workflow/testing`: run your own workflows in plain Node (vitest, no Worker). The
 * in-memory world runs the same run host, drive loop, planner harness and step runtime as the
 * Worker's run object, over memory stores; models are the offline model, or yours.
 *
 * @example
 * import { MemoryWorld, mockModel, modelsFor, runWorkflow } from "little-workflow/testing";
 *
 * const world = new MemoryWorld({ models: modelsFor({ worker: mockModel({ summary: "Charged twice", severity: "high" }) }) });
 * const result = await runWorkflow(summarizeTicket, { ticketId: "T-1", transcript: "…" }, { world });
 * // result.status === "completed"; result.output is what the worker answered, checked against the output schema
 */

export { OfflineLanguageModel } from "../adapters/models/offline-model.ts";
export type { RunWorkflowOptions } from "../engine/run-workflow.ts";
export { runWorkflow } from "../engine/run-workflow.ts";
export type { Clock } from "../ports/clock.ts";
export type { CallableModel, ModelRequest, ModelResolver, ResolvedModel } from "../ports/model-resolver.ts";
export type { RunEvent, RunStatus, RunTrigger } from "../ports/run-events.ts";
export type { RunResult, World } from "../ports/world.ts";
export { MemoryWorld } from "../worlds/memory-world.ts";
export type { MockAnswer, MockModel, ModelChoice } from "../worlds/test-models.ts";
export { mockModel, modelsFor, offlineModels } from "../worlds/test-models.ts";
