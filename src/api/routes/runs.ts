import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { mintAnchorId } from "../../engine/runs/run-ids.ts";
import { isEndedStatus } from "../../ports/run-status.ts";
import type { ApiEnv } from "../api-env.ts";
import { ApiError } from "../api-error.ts";
import { requireTenant } from "../auth.ts";
import { runLinks } from "../run-links.ts";
import { cancelTenantRun, listTenantRuns, readRun, startTenantRun, toRun } from "../run-operations.ts";
import { commonErrors, ErrorBody, json, RUN_STATUSES, RunResponse, RunSummary, runErrors, StartRunBody, WAIT_REASONS } from "../schemas.ts";

export { toRun };

export const runRoutes = new OpenAPIHono<ApiEnv>();
runRoutes.use("/workflows/*", requireTenant());
runRoutes.use("/runs", requireTenant());
runRoutes.use("/runs/*", requireTenant());

const startRoute = createRoute({
  method: "post",
  path: "/workflows/{workflowId}/runs",
  operationId: "startRun",
  tags: ["runs"],
  summary: "Start a run (the HTTP trigger)",
  description:
    "Starts a run of a registered workflow. `Idempotency-Key` makes retries return the same run; `?wait=<seconds>` holds the answer until the run ends or the wait runs out.",
  request: {
    params: z.object({ workflowId: z.string() }),
    query: z.object({ wait: z.coerce.number().min(0).max(60).optional() }),
    headers: z.object({
      "idempotency-key": z.string().min(1).max(255).optional(),
      traceparent: z.string().max(256).optional().openapi({
        description: "W3C Trace Context: the run's trace becomes a child of this span (docs/observability.md); a malformed one is ignored",
      }),
    }),
    body: { content: { "application/json": { schema: StartRunBody } }, required: true },
  },
  responses: {
    200: json(RunResponse, "The run ended within the wait"),
    202: json(RunResponse, "The run is started (or was already)"),
    409: json(
      ErrorBody,
      "The run id or idempotency key was used for another workflow or input, or (`model_unavailable`, LITTLE_MODELS=live) a model slot lacks its key: nothing is stored",
    ),
    413: json(ErrorBody, "Body too large"),
    422: json(
      ErrorBody,
      "The input does not match the workflow's input schema, the tags break their rules (`run_tags_invalid`), a LITTLE_MODEL_<SLOT> var is invalid (`model_config_invalid`), or the runId is in a namespace the Worker derives for its triggers (`run_id_reserved`): nothing is stored",
    ),
    ...commonErrors,
  },
});

runRoutes.openapi(startRoute, async (c) => {
  const { workflowId } = c.req.valid("param");
  const { wait } = c.req.valid("query");
  const body = c.req.valid("json");
  const continent = continentOf(c.req.raw);
  const { runId, view, placement } = await startTenantRun(c.get("services"), c.get("tenant"), {
    workflowId,
    input: body.input,
    runId: body.runId,
    idempotencyKey: c.req.valid("header")["idempotency-key"],
    location: body.location,
    continent,
    wait,
    triggerKind: "http",
    traceparent: c.req.valid("header").traceparent,
    tags: body.tags,
  });
  const origin = new URL(c.req.url).origin;
  const response = { run: { ...toRun(view), placement }, links: runLinks(origin, runId) };
  return c.json(response as z.infer<typeof RunResponse>, isEndedStatus(view.status) ? 200 : 202, { location: response.links.self });
});

const getRoute = createRoute({
  method: "get",
  path: "/runs/{runId}",
  operationId: "getRun",
  tags: ["runs"],
  summary: "Get a run: status, version, output or cause, usage",
  description:
    "The run as its object sees it now: status, the version it was compiled to, output or cause, token usage and cost, a section's occurrences and pending approvals. Another tenant's run id is 404.",
  request: { params: z.object({ runId: z.string() }) },
  responses: { 200: json(RunResponse, "The run"), ...runErrors },
});

runRoutes.openapi(getRoute, async (c) => {
  const { runId } = c.req.valid("param");
  const { view, placement } = await readRun(c.get("services"), c.get("tenant"), runId);
  return c.json(
    {
      run: { ...toRun(view), placement: { ...placement, jurisdictionEnforced: false } },
      links: runLinks(new URL(c.req.url).origin, runId),
    } as z.infer<typeof RunResponse>,
    200,
  );
});

const listRoute = createRoute({
  method: "get",
  path: "/runs",
  operationId: "listRuns",
  tags: ["runs"],
  summary: "List the tenant's runs, newest first",
  description:
    "From the run index, newest first. Filter by `workflow`, `status`, `waitReason` and `tag`; follow `nextCursor` (pass it as `cursor`) for the next page.",
  request: {
    query: z.object({
      workflow: z.string().optional(),
      status: z.enum(RUN_STATUSES).optional(),
      waitReason: z.enum(WAIT_REASONS).optional().openapi({
        description:
          "Only runs waiting for this (`approval`, `sleep`, `trigger`, `concurrency`, `throttle`, `rate_limit`); implies `status=waiting`.",
      }),
      tag: z
        .union([z.string(), z.array(z.string())])
        .optional()
        .openapi({
          description: "`key:value`: only runs started with that tag. Repeat it (`?tag=a:1&tag=b:2`): a run must carry every one.",
        }),
      limit: z.coerce.number().int().min(1).max(200).optional(),
      cursor: z.string().optional(),
    }),
  },
  responses: { 200: json(z.object({ runs: z.array(RunSummary), nextCursor: z.string().nullable() }), "A page of runs"), ...commonErrors },
});

runRoutes.openapi(listRoute, async (c) => {
  return c.json(await listTenantRuns(c.get("services"), c.get("tenant"), c.req.valid("query")), 200);
});

const cancelRoute = createRoute({
  method: "post",
  path: "/runs/{runId}/cancel",
  operationId: "cancelRun",
  tags: ["runs"],
  summary: "Cancel a run (no effect on a run that has ended)",
  description:
    "Cancels a run that has not ended (its next slice stops; no new model or tool call starts) and answers the run as it now is. A run that already ended is answered unchanged.",
  request: { params: z.object({ runId: z.string() }) },
  responses: { 200: json(RunResponse, "The run after the cancel"), ...runErrors },
});

runRoutes.openapi(cancelRoute, async (c) => {
  const { runId } = c.req.valid("param");
  const view = await cancelTenantRun(c.get("services"), c.get("tenant"), runId, "cancelled through the API");
  return c.json({ run: toRun(view), links: runLinks(new URL(c.req.url).origin, runId) } as z.infer<typeof RunResponse>, 200);
});

function continentOf(request: Request): string | undefined {
  const cf = (request as { cf?: { continent?: unknown } }).cf;
  return typeof cf?.continent === "string" ? cf.continent : undefined;
}

const mintRoute = createRoute({
  method: "post",
  path: "/workflows/{workflowId}/anchors",
  operationId: "mintRunAnchor",
  tags: ["runs"],
  summary: "Mint a run anchor: a run id reserved before its run starts",
  description:
    "For a scheduler or a webhook that must name a run before it can start it. Start it later with `POST /v1/workflows/{workflowId}/runs` and this `runId`: the start adopts the anchor (one row, a guarded compare-and-set), and two concurrent starts yield one run. Another tenant cannot start it.",
  request: { params: z.object({ workflowId: z.string() }) },
  responses: { 201: json(RunResponse, "The minted anchor"), ...commonErrors },
});

runRoutes.openapi(mintRoute, async (c) => {
  const { workflowId } = c.req.valid("param");
  const services = c.get("services");
  if (!services.workflows.get(workflowId)) throw new ApiError("workflow_not_found", `No workflow "${workflowId}"`);
  const runId = mintAnchorId();
  const at = services.clock.now();
  await services.runs.upsert({
    tenant: c.get("tenant"),
    runId,
    workflowId,
    status: "minted",
    triggerKind: "anchor",
    definitionHash: null,
    versionId: null,
    causeCode: null,
    placement: {},
    createdAt: at,
    updatedAt: at,
  });
  const run = { runId, workflowId, status: "minted" as const, eventCount: 0, createdAt: at };
  return c.json({ run, links: runLinks(new URL(c.req.url).origin, runId) } as z.infer<typeof RunResponse>, 201);
});
