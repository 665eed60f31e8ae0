import type { z } from "@hono/zod-openapi";
import { findTenantRun } from "../engine/runs/find-tenant-run.ts";
import type { RunTrigger } from "../ports/run-events.ts";
import { validateJson } from "../schema/validate-json.ts";
import { WorkflowInputValidationError } from "../sdk/errors/workflow-input-validation-error.ts";
import type { ApiServices } from "./api-env.ts";
import { ApiError, notFound } from "./api-error.ts";
import { toRun } from "./routes/runs.ts";
import { runLinks } from "./run-links.ts";
import type { OccurrenceResponse } from "./schemas.ts";
import { capabilitiesOf } from "./workflow-capabilities.ts";

/**
 * Queues an occurrence on a tenant's section run: the run must exist for the tenant, be of a
 * workflow with an `onTrigger` section, not have ended, and the payload must fit the input schema
 * (422, nothing queued). A trigger id seen before returns its occurrence (`created: false`).
 */
export async function queueOccurrence(args: {
  env: Env;
  services: ApiServices;
  tenant: string;
  runId: string;
  /** When the caller addressed a workflow (webhooks), the run must be of it. */
  workflowId?: string;
  input: unknown;
  trigger: RunTrigger;
  origin: string;
  waitMs?: number;
}): Promise<{ created: boolean; body: z.infer<typeof OccurrenceResponse> }> {
  const { workflowId, client } = await findTenantRun(args.services, args.tenant, args.runId);
  if (args.workflowId !== undefined && workflowId !== args.workflowId) throw notFound("run", args.runId);
  const registered = args.services.workflows.get(workflowId);
  if (!registered) throw notFound("workflow", workflowId);
  if (!registered.definition.onTrigger)
    throw new ApiError("run_not_a_section", `Run "${args.runId}" is of "${workflowId}", which has no onTrigger section`);
  const capabilities = await capabilitiesOf(registered);
  const check = validateJson(capabilities.inputSchema, args.input, "input.invalid");
  if (!check.valid) throw new WorkflowInputValidationError(workflowId, check.findings, "trigger payload");
  const result = await client.trigger({ input: args.input, trigger: args.trigger });
  const view = args.waitMs && args.waitMs > 0 && result.created ? await client.waitForEnd(args.waitMs) : result.view;
  return {
    created: result.created,
    body: {
      occurrenceId: result.occurrenceId,
      created: result.created,
      run: toRun(view) as z.infer<typeof OccurrenceResponse>["run"],
      links: runLinks(args.origin, args.runId),
    },
  };
}
