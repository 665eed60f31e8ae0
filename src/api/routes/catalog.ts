import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { slotReadiness } from "../../engine/runs/model-gate.ts";
import { versionIdOf } from "../../identity/workflow-version.ts";
import { isDigest } from "../../json/digest.ts";
import type { ApiEnv } from "../api-env.ts";
import { notFound } from "../api-error.ts";
import { requireTenant } from "../auth.ts";
import { commonErrors, json } from "../schemas.ts";
import { capabilitiesOf } from "../workflow-capabilities.ts";
import { flowControlOf } from "../workflow-flow-control.ts";

/** Workflows this Worker runs, and the versions the tenant's runs were compiled to. */
export const catalogRoutes = new OpenAPIHono<ApiEnv>();
catalogRoutes.use("/workflows", requireTenant());
catalogRoutes.use("/versions/*", requireTenant());

const ModelSlotReadiness = z
  .object({
    id: z.string().openapi({ description: "The slot id (the planner's is derived from its model, like a step slot's)" }),
    role: z.enum(["planner", "step"]),
    provider: z.string().openapi({ description: "Provider id as hashed into the definition, e.g. openai.responses" }),
    model: z.string(),
    source: z.enum(["definition", "override"]).openapi({ description: "override: chosen by the LITTLE_MODEL_<SLOT> var" }),
    mode: z.enum(["live", "auto", "offline"]).openapi({ description: "LITTLE_MODELS" }),
    ready: z.boolean().openapi({ description: "A run can call this slot (a live start is refused while one is not)" }),
    offline: z.boolean().openapi({ description: "Calls go to the offline model (offline mode, or auto falling back)" }),
    missing: z
      .array(z.string())
      .optional()
      .openapi({ description: "Secrets (or AI, the Workers AI binding) the real provider lacks, also when the offline model stands in" }),
  })
  .openapi("ModelSlotReadiness");

const Workflow = z
  .object({
    id: z.string(),
    description: z.string(),
    definitionHash: z.string(),
    inputSchema: z.unknown(),
    requestedOutput: z.unknown(),
    modelSlots: z.array(z.object({ id: z.string(), providerId: z.string(), modelId: z.string(), description: z.string() })),
    models: z.array(ModelSlotReadiness).openapi({
      description: "Each slot's provider, model and readiness; a live start with a slot not ready is refused (model_unavailable)",
    }),
    tools: z.array(z.object({ id: z.string(), description: z.string(), descriptorHash: z.string() })),
    placement: z.object({ jurisdiction: z.string().optional() }),
    signals: z.array(z.object({ name: z.string(), description: z.string(), schema: z.unknown(), schemaHash: z.string() })).openapi({
      description:
        "The signals a run may wait for (`wait.signal`, docs/waits.md), sorted by name, each with its normalized payload JSON Schema: what `POST /v1/runs/{runId}/signals` accepts. [] when none are declared.",
    }),
    workflows: z.array(z.object({ id: z.string(), definitionHash: z.string() })).openapi({
      description:
        "The workflows it may call (`workflow.run`), sorted by id, each with the definition hash its own hash includes. [] when it calls none.",
    }),
    flowControl: z
      .object({
        concurrency: z.array(z.object({ limit: z.number().int(), key: z.string().optional() })).optional(),
        throttle: z.object({ limit: z.number().int(), periodMs: z.number().int(), key: z.string().optional() }).optional(),
        modelLimits: z
          .array(
            z.object({
              slotId: z.string(),
              providerId: z.string(),
              modelId: z.string(),
              requestsPerMinute: z.number().int().optional(),
              tokensPerMinute: z.number().int().optional(),
              concurrent: z.number().int().optional(),
            }),
          )
          .optional(),
      })
      .optional()
      .openapi({
        description:
          "The workflow's flow control (docs/flow-control.md): `concurrency` and `throttle` (keys are templates over the input) and the model slots' shared `limits`. Not part of the definition hash.",
      }),
  })
  .openapi("Workflow");

catalogRoutes.openapi(
  createRoute({
    method: "get",
    path: "/workflows",
    operationId: "listWorkflows",
    tags: ["workflows"],
    summary: "The workflows this Worker runs, each with its definition hash",
    description:
      "Each registered workflow with its definition hash, input schema, requested output, model slots with their readiness, tools and placement.",
    responses: { 200: json(z.object({ workflows: z.array(Workflow) }), "Workflows"), ...commonErrors },
  }),
  async (c) => {
    const { services } = c.var;
    const ids = services.workflows.ids();
    const workflows = await Promise.all(
      ids.map(async (id) => {
        const registered = services.workflows.get(id) as NonNullable<ReturnType<typeof services.workflows.get>>;
        const caps = await capabilitiesOf(registered);
        const s = caps.snapshot;
        return {
          id: s.id,
          description: s.description,
          definitionHash: caps.definitionHash,
          inputSchema: caps.inputSchema,
          requestedOutput: caps.requestedOutput,
          modelSlots: [...s.modelSlots],
          models: slotReadiness(services.models, registered, caps),
          tools: s.tools.map((t) => ({ id: t.id, description: t.description, descriptorHash: t.descriptorHash })),
          placement: s.placement,
          signals: [...(s.signals ?? [])],
          workflows: [...(s.workflows ?? [])],
          ...flowControlOf(registered.definition, s.modelSlots),
        };
      }),
    );
    return c.json({ workflows }, 200);
  },
);

const Version = z
  .object({
    version: z.object({ id: z.string(), hash: z.string(), canonicalizer: z.string(), lwir: z.unknown() }),
    locks: z.array(z.object({ lockHash: z.string(), definitionHash: z.string(), lock: z.unknown() })),
  })
  .openapi("WorkflowVersion");

catalogRoutes.openapi(
  createRoute({
    method: "get",
    path: "/versions/{versionId}",
    operationId: "getVersion",
    tags: ["workflows"],
    summary: "A WorkflowVersion with its LWIR and locks",
    description:
      "Versions are content-addressed and shared; a tenant sees a version only when one of its runs was compiled to it. Address it by its full hash (`sha256:…`, exact) or by its `wfver_` display id.",
    request: { params: z.object({ versionId: z.string() }) },
    responses: { 200: json(Version, "The version"), ...commonErrors },
  }),
  async (c) => {
    const { versionId } = c.req.valid("param");
    const { services } = c.var;
    // The tenant check first, by display id (a hash's id derives from it), so nothing else is probed.
    const id = isDigest(versionId) ? versionIdOf(versionId) : versionId;
    if (!(await services.runs.tenantUsesVersion(c.var.tenant, id))) throw notFound("version", versionId);
    const version = isDigest(versionId)
      ? await services.versions.getVersionByHash(versionId)
      : await services.versions.getVersionById(versionId);
    if (!version) throw notFound("version", versionId);
    const locks = (await services.versions.locksOf(version.id)).filter((l) => l.lock.workflowVersionHash === version.hash);
    return c.json(
      { version: { id: version.id, hash: version.hash, canonicalizer: version.canonicalizer, lwir: version.lwir }, locks },
      200,
    );
  },
);
