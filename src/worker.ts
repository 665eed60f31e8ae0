/**
 * The repository's Worker entry: a user of `createWorker` (the package's `little-workflow/worker`)
 * with the sample workflows of src/workflows.ts. Exports the handlers and every Durable Object
 * class wrangler.toml declares.
 */
import { createWorker } from "./package/worker.ts";
import { registeredWorkflows } from "./workflows.ts";

export { BulkJobObject, FlowLimiterObject, LittleWorkflowEntrypoint, NetworkGate, RunObject, SandboxContainer } from "./package/worker.ts";

export default createWorker<Env>({ workflows: registeredWorkflows });
