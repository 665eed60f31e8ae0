import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { CALLER_RUN_ID_DESCRIPTION } from "../../engine/runs/derived-run-ids.ts";
import { runIdFor } from "../../engine/runs/run-ids.ts";
import { startRun } from "../../engine/runs/start-service.ts";
import { checkLwir } from "../../lwir/check-lwir.ts";
import { lwirJsonSchema } from "../../lwir/lwir-json-schema.ts";
import { validateLwir } from "../../lwir/validate-lwir.ts";
import { isEndedStatus } from "../../ports/run-status.ts";
import { hasNoErrors } from "../../sdk/finding.ts";
import type { ApiEnv } from "../api-env.ts";
import { ApiError, notFound } from "../api-error.ts";
import { requireTenant } from "../auth.ts";
import { runLinks } from "../run-links.ts";
import { commonErrors, ErrorBody, Finding, json, RunResponse, StartRunBody } from "../schemas.ts";
import { capabilitiesOf } from "../workflow-capabilities.ts";
import { toRun } from "./runs.ts";

export const lwirRoutes = new OpenAPIHono<ApiEnv>();
lwirRoutes.use("/lwir/*", requireTenant());

lwirRoutes.openapi(
  createRoute({
    method: "post",
    path: "/lwir/validate",
    operationId: "validateLwir",
    tags: ["lwir"],
    summary: "Validate an LWIR document",
    description:
      "Structural validation; with `?workflow=<id>` also the binding pass against that workflow's definition, in the same pass (every finding at once, as the planner's `submit_lwir` and `lwir-check` report them). Always 200 with `{ valid, findings }` for a JSON body.",
    request: {
      query: z.object({ workflow: z.string().optional() }),
      body: { content: { "application/json": { schema: z.unknown().openapi({ description: "An LWIR document" }) } }, required: true },
    },
    responses: {
      200: json(z.object({ valid: z.boolean(), findings: z.array(Finding) }), "The findings"),
      ...commonErrors,
      400: json(ErrorBody, "Not JSON"),
      404: json(ErrorBody, "Unknown workflow"),
    },
  }),
  async (c) => {
    const lwir = c.req.valid("json");
    const { workflow } = c.req.valid("query");
    let findings = [...validateLwir(lwir).findings];
    if (workflow) {
      const registered = c.var.services.workflows.get(workflow);
      if (!registered) throw notFound("workflow", workflow);
      // Structure and binding in one pass, exactly as the planner's submit_lwir sees them.
      findings = checkLwir(lwir, await capabilitiesOf(registered));
    }
    return c.json({ valid: hasNoErrors(findings), findings }, 200);
  },
);

lwirRoutes.openapi(
  createRoute({
    method: "get",
    path: "/lwir/schema",
    operationId: "getLwirSchema",
    tags: ["lwir"],
    summary: "The JSON Schema of an LWIR document",
    description:
      "Generated from the contract `validateLwir` enforces (JSON Schema 2020-12). It covers every field, step kind and range; the graph, templates, file digests and binding are checked by `POST /v1/lwir/validate`.",
    responses: {
      200: json(z.record(z.string(), z.unknown()).openapi({ description: "A JSON Schema document" }), "The schema"),
      ...commonErrors,
    },
  }),
  (c) => c.json(lwirJsonSchema() as Record<string, unknown>, 200),
);

lwirRoutes.openapi(
  createRoute({
    method: "post",
    path: "/lwir/runs",
    operationId: "startLwirRun",
    tags: ["runs"],
    summary: "Run a given LWIR document, without a planner",
    description:
      "Validates the document and binds it to the registered workflow its `metadata.name` names (400 `lwir_invalid` with findings otherwise), registers its version and executes it with the Worker's tools and models. Trigger kind `lwir`; events, status and replay as for any run. `Idempotency-Key` makes retries return the same run (409 `idempotency_conflict` when the key comes again with another document or input).",
    request: {
      query: z.object({ wait: z.coerce.number().min(0).max(60).optional() }),
      headers: z.object({ "idempotency-key": z.string().min(1).max(255).optional() }),
      body: {
        content: {
          "application/json": {
            schema: z.object({
              lwir: z.unknown(),
              input: z.unknown(),
              runId: z
                .string()
                .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/)
                .optional()
                .openapi({ description: CALLER_RUN_ID_DESCRIPTION }),
              tags: StartRunBody.shape.tags,
            }),
          },
        },
        required: true,
      },
    },
    responses: {
      200: json(RunResponse, "The run ended within the wait"),
      202: json(RunResponse, "The run is started"),
      ...commonErrors,
      413: json(ErrorBody, "Body too large, or an LWIR over LITTLE_QUOTA_LWIR_BYTES (`lwir_too_large`); nothing is stored"),
      400: json(ErrorBody, "Invalid LWIR (with findings) or request"),
      404: json(ErrorBody, "No registered workflow of that name"),
      422: json(
        ErrorBody,
        "The runId is in a namespace the Worker derives for its triggers (`run_id_reserved`), or the tags break their rules (`run_tags_invalid`): nothing is stored",
      ),
      409: json(ErrorBody, "LITTLE_MODELS=live and a model slot lacks its key (`model_unavailable`): nothing is stored"),
    },
  }),
  async (c) => {
    const body = c.req.valid("json");
    const structural = validateLwir(body.lwir);
    if (!structural.valid)
      throw new ApiError("lwir_invalid", "The LWIR document is invalid", { findings: structural.findings, status: 400 });
    const workflowId = (body.lwir as { metadata: { name: string } }).metadata.name;
    const registered = c.var.services.workflows.get(workflowId);
    if (!registered) throw notFound("workflow", workflowId);
    const findings = checkLwir(body.lwir, await capabilitiesOf(registered));
    if (!hasNoErrors(findings))
      throw new ApiError("lwir_invalid", `The LWIR does not bind to workflow "${workflowId}"`, { findings, status: 400 });
    const tenant = c.var.tenant;
    const key = c.req.valid("header")["idempotency-key"];
    const runId = runIdFor(tenant, workflowId, body.runId, key, "lwir");
    const wait = c.req.valid("query").wait;
    const started = await startRun(c.var.services, {
      tenant,
      workflowId,
      input: body.input,
      runId,
      trigger: { kind: "lwir", ...(key ? { id: key } : {}) },
      conflictCode: key && body.runId === undefined ? "idempotency_conflict" : "run_id_conflict",
      lwir: body.lwir,
      callerRunId: body.runId !== undefined,
      waitMs: wait ? wait * 1_000 : undefined,
      ...(body.tags !== undefined ? { tags: body.tags } : {}),
    });
    const view = started.view;
    const response = { run: { ...toRun(view), placement: started.placement }, links: runLinks(new URL(c.req.url).origin, runId) };
    return c.json(response as z.infer<typeof RunResponse>, isEndedStatus(view.status) ? 200 : 202);
  },
);
