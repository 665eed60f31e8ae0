import {
  BulkJobObject,
  createWorker,
  FlowLimiterObject,
  LittleWorkflowEntrypoint,
  NetworkGate,
  RunObject,
  SandboxContainer,
} from "little-workflow/worker";
import { lookupCustomer } from "./tools/lookup-customer.ts";
import { triageTicket } from "./workflows/triage-ticket.ts";

// wrangler finds the Durable Object classes and entrypoints among this module's exports, by name.
// Export nothing else from here: keep workflows and tools in their own modules.
export { BulkJobObject, FlowLimiterObject, LittleWorkflowEntrypoint, NetworkGate, RunObject, SandboxContainer };

/** The Worker: the /v1 API and run inspector (fetch), cron ticks (scheduled), queue-started runs (queue). */
export default createWorker<Env>({ workflows: [triageTicket], tools: { lookupCustomer } });
