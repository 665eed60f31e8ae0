import { catalogOf, type RegisteredWorkflow } from "./engine/run-environment.ts";
import { summarizeTicket } from "./examples/support-summarize-ticket.ts";

/**
 * The workflows this Worker can run, by id, each with the tool registry its `globalTools` resolve
 * against. Add yours here.
 */
export const registeredWorkflows: RegisteredWorkflow[] = [{ definition: summarizeTicket, tools: {} }];

export const workflowCatalog = catalogOf(registeredWorkflows);
