import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { liveHash } from "../../engine/run-host/stale-section.ts";
import { findTenantRun } from "../../engine/runs/find-tenant-run.ts";
import type { RunHandle, TriggerRequest } from "../../ports/run-handle.ts";
import type { RunIndexEntry } from "../../ports/run-index.ts";
import { isEndedStatus } from "../../ports/run-status.ts";
import { LEGACY_SCHEMA_NORMALIZER } from "../../schema/normalize-schema.ts";
import { LittleError } from "../../sdk/errors/little-error.ts";
import { WorkflowInputValidationError } from "../../sdk/errors/workflow-input-validation-error.ts";
import type { ApiEnv } from "../api-env.ts";
import { ApiError, notFound } from "../api-error.ts";
import { requireTenant } from "../auth.ts";
import { isErrorCode } from "../error-status.ts";
import { decodeCursor, encodeCursor } from "../run-operations.ts";
import { commonErrors, ErrorBody, json, Run, runErrors } from "../schemas.ts";
import { unfinishedPage } from "../section-list.ts";
import { misfitOccurrences, queuedOccurrences } from "../section-pending.ts";
import { capabilitiesOf } from "../workflow-capabilities.ts";
import { toRun } from "./runs.ts";

/**
 * Sections across a redeploy. A section locks its body against the definition it started under;
 * after a deploy that changes the definition hash it refuses triggers (409 `section_stale`: queued,
 * the occurrence would fail the section with `capability_drift`). These routes list a workflow's unfinished sections with whether their
 * definition is still the live one, and move a waiting section's pending occurrences into a
 * section started under the new definition, ending the old one with `section_superseded`.
 */
export const sectionRoutes = new OpenAPIHono<ApiEnv>();
sectionRoutes.use("/workflows/*", requireTenant());
sectionRoutes.use("/runs/*", requireTenant());

const SectionSummary = z
  .object({
    runId: z.string(),
    status: z.string(),
    definitionHash: z.string().nullable().openapi({ description: "The definition the section locked its body against" }),
    versionId: z.string().nullable(),
    stale: z.boolean().openapi({ description: "Its definition is no longer the live one: supersede it before triggering it" }),
    createdAt: z.number(),
    updatedAt: z.number(),
  })
  .openapi("SectionSummary");

sectionRoutes.openapi(
  createRoute({
    method: "get",
    path: "/workflows/{workflowId}/sections",
    operationId: "listSections",
    tags: ["runs"],
    summary: "A section workflow's unfinished runs, and which are stale after a redeploy",
    description:
      "The tenant's section runs of this workflow that have not ended (newest first), each with the definition hash it locked and `stale: true` when that is no longer the live hash. `?stale=true` lists only those. Follow `nextCursor` (pass it as `cursor`) for the next page, as for `GET /v1/runs`. Supersede a stale one with `POST /v1/runs/{runId}/supersede`.",
    request: {
      params: z.object({ workflowId: z.string() }),
      query: z.object({
        stale: z.enum(["true", "false"]).optional(),
        limit: z.coerce.number().int().min(1).max(200).optional().openapi({ description: "Sections per page (default 200)" }),
        cursor: z.string().optional().openapi({ description: "A `nextCursor` from the previous page" }),
      }),
    },
    responses: {
      200: json(
        z.object({
          liveDefinitionHash: z.string(),
          sections: z.array(SectionSummary),
          nextCursor: z.string().nullable().openapi({ description: "Pass as `cursor` for the next page; null on the last" }),
        }),
        "A page of sections",
      ),
      409: json(ErrorBody, "The workflow has no onTrigger section"),
      ...commonErrors,
    },
  }),
  async (c) => {
    const { services, tenant } = c.var;
    const { workflowId } = c.req.valid("param");
    const registered = services.workflows.get(workflowId);
    if (!registered) throw notFound("workflow", workflowId);
    if (!registered.definition.onTrigger) throw new ApiError("run_not_a_section", `Workflow "${workflowId}" has no onTrigger section`);
    const live = (await capabilitiesOf(registered)).definitionHash;
    // A run started before schemas were order-free hashed its definition with the legacy normalizer.
    const legacy = await liveHash(registered, LEGACY_SCHEMA_NORMALIZER);
    const query = c.req.valid("query");
    const isStale = (r: RunIndexEntry) => r.definitionHash !== null && r.definitionHash !== live && r.definitionHash !== legacy;
    const { rows, next } = await unfinishedPage(services, {
      tenant,
      workflowId,
      limit: query.limit ?? 200,
      ...(query.cursor ? { before: decodeCursor(query.cursor) } : {}),
      keep: (r) => query.stale !== "true" || isStale(r),
    });
    const sections = rows.map((r) => ({
      runId: r.runId,
      status: r.status,
      definitionHash: r.definitionHash,
      versionId: r.versionId,
      stale: isStale(r),
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    }));
    const nextCursor = next ? encodeCursor(next.createdAt, next.runId) : null;
    return c.json({ liveDefinitionHash: live, sections, nextCursor }, 200);
  },
);

const Superseded = z
  .object({
    run: Run.openapi({ description: "The superseded section: failed with `section_superseded`" }),
    into: z.string(),
    adopted: z
      .array(z.object({ from: z.string(), occurrenceId: z.string(), created: z.boolean() }))
      .openapi({ description: "Each pending occurrence of the old section (`from`) and the occurrence it became in `into`" }),
  })
  .openapi("SectionSuperseded");

sectionRoutes.openapi(
  createRoute({
    method: "post",
    path: "/runs/{runId}/supersede",
    operationId: "supersedeSection",
    tags: ["runs"],
    summary: "End a waiting section and move its pending occurrences into another section",
    description:
      'For a redeploy that changed the definition hash: `into` is a section of the same workflow under the live definition (started as any run is). The old section must have no occurrence running (409 `section_not_waiting`); it ends with `RunFailed { causeCode: "section_superseded" }`, and each occurrence it had queued and not started is queued in `into` under the trigger id `supersede:<runId>:<occurrenceId>`. Retrying with the same `into` adopts nothing twice.',
    request: {
      params: z.object({ runId: z.string() }),
      body: { content: { "application/json": { schema: z.object({ into: z.string().min(1) }) } }, required: true },
    },
    responses: {
      200: json(Superseded, "The superseded section and what `into` adopted"),
      422: json(
        ErrorBody,
        "A pending occurrence's input does not fit the live input schema (`input_schema_error`, findings under `$.occurrences.<id>`); nothing changed",
      ),
      409: json(
        ErrorBody,
        "Not a section, an occurrence is running, `into` is not a live section of the workflow, or the run ended otherwise",
      ),
      ...runErrors,
    },
  }),
  async (c) => {
    const { services, tenant } = c.var;
    const { runId } = c.req.valid("param");
    const { into } = c.req.valid("json");
    if (into === runId) throw new ApiError("invalid_request", "A section cannot be superseded by itself");
    const old = await findTenantRun(services, tenant, runId);
    // The definition hash a section locked is the index row's (the run object does not answer it).
    const target = await findTenantRun(services, tenant, into, { indexRow: true });
    const registered = services.workflows.get(old.workflowId);
    if (!registered?.definition.onTrigger) throw new ApiError("run_not_a_section", `Run "${runId}" is not a section`);
    const capabilities = await capabilitiesOf(registered);
    const live = capabilities.definitionHash;
    const row = target.entry;
    if (target.workflowId !== old.workflowId || row?.definitionHash !== live || isEndedStatus(row.status))
      throw new ApiError(
        "section_not_live",
        `Run "${into}" is not an unfinished section of "${old.workflowId}" under its live definition ${live}`,
      );
    // Checked before the old section ends: a payload the live schema refuses, moved in, would fail
    // the new section (input_schema_error under "end") with the old one already gone.
    const misfits = misfitOccurrences(capabilities.inputSchema, await queuedOccurrences(old.client));
    if (misfits.length > 0) throw new WorkflowInputValidationError(old.workflowId, misfits, "trigger payload");
    // No approval guard is asked for, so `run_not_under_approval` cannot come back.
    const ended = await old.client.end({
      causeCode: "section_superseded",
      message: `Superseded by section ${into} (definition ${live}); its pending occurrences moved there`,
      details: { supersededBy: into, definitionHash: live },
      only: { waitingSection: true },
    });
    const adopted = [];
    for (const pending of ended.pending) {
      const queued = await adopt(target.client, into, pending.occurrenceId, {
        input: pending.input,
        trigger: { kind: "programmatic", id: `supersede:${runId}:${pending.occurrenceId}` },
      });
      adopted.push({ from: pending.occurrenceId, occurrenceId: queued.occurrenceId, created: queued.created });
    }
    const view = await old.client.status();
    return c.json({ run: toRun(view) as z.infer<typeof Run>, into, adopted }, 200);
  },
);

/** Queues a superseded section's pending occurrence in `into`; a refusal says which occurrence `into` refused. */
async function adopt(target: RunHandle, into: string, occurrenceId: string, request: TriggerRequest) {
  try {
    return await target.trigger(request);
  } catch (error) {
    if (!LittleError.is(error) || !isErrorCode(error.code)) throw error;
    throw new ApiError(error.code, `Section ${into} refused ${occurrenceId}: ${error.message}`);
  }
}
