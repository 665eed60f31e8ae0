/**
 * `little-workflow/worker`: what a Worker project imports to serve its workflows. Re-export the
 * Durable Object classes from the Worker's entry (wrangler looks them up there by `class_name`),
 * `LittleWorkflowEntrypoint` when other Workers start runs through a service binding, and export
 * `createWorker(...)` as its default.
 *
 * @example
 * import { BulkJobObject, createWorker, FlowLimiterObject, NetworkGate, RunObject, SandboxContainer } from "little-workflow/worker";
 * import { summarize } from "./workflows/summarize.ts";
 *
 * export { BulkJobObject, FlowLimiterObject, NetworkGate, RunObject, SandboxContainer };
 * export default createWorker<Env>({ workflows: [summarize] });
 */

export { BulkJobObject } from "../../durable-objects/bulk-job.ts";
export { FlowLimiterObject } from "../../durable-objects/flow-limiter.ts";
export { RunObject } from "../../durable-objects/run.ts";
export { SandboxContainer } from "../adapters/sandbox-container/sandbox-container.ts";
export { NetworkGate } from "../adapters/sandbox-isolate/network-gate.ts";
export type { RpcProps, RpcStartOptions } from "../api/rpc-entrypoint.ts";
export { LittleWorkflowEntrypoint } from "../api/rpc-entrypoint.ts";
export { LittleRpcError } from "../api/rpc-error.ts";
export type { CreateWorkerOptions, LittleWorker, WorkerWorkflow } from "../create-worker.ts";
export { createWorker } from "../create-worker.ts";
export type { ToolContext } from "../sdk/tool.ts";
export { toolWithEnv } from "../sdk/tool.ts";
