import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { compareRuns } from "../../engine/runs/compare-runs.ts";
import { forkRun } from "../../engine/runs/fork-run.ts";
import { restartRun } from "../../engine/runs/restart-run.ts";
import { isEndedStatus } from "../../ports/run-status.ts";
import type { ApiEnv } from "../api-env.ts";
import { ApiError } from "../api-error.ts";
import { requireTenant } from "../auth.ts";
import { runLinks } from "../run-links.ts";
import { ErrorBody, json, RunResponse, runErrors } from "../schemas.ts";
import { ForkBody, ForkPlan, RestartBody, RunComparison } from "./run-fork-schemas.ts";
import { toRun } from "./runs.ts";

/** Restart from a step, forks and compare (docs/runs.md, "Restart and forks"): the engine's functions over HTTP. */
export const runForkRoutes = new OpenAPIHono<ApiEnv>();
runForkRoutes.use("/runs/*", requireTenant());

const idempotencyHeader = z.object({
  "idempotency-key": z.string().min(1).max(255).optional().openapi({ description: "A retry with the same key returns the same new run" }),
});
const refusals = {
  409: json(ErrorBody, "`run_active` (the run has not ended), `run_not_forkable` (it never ran a version), or an `idempotency_conflict`"),
  422: json(
    ErrorBody,
    "`restart_step_unknown` (names the step ids), `restart_no_failed_step`, `fork_edit_invalid` (findings), `lwir_invalid` (findings) or `input_schema_error`: nothing is stored",
  ),
  ...runErrors,
};

const restartRoute = createRoute({
  method: "post",
  path: "/runs/{runId}/restart",
  operationId: "restartRun",
  tags: ["runs"],
  summary: "Restart an ended run from a step",
  description:
    "Starts a new run of the same version and input. Steps not downstream of `fromStep` (default: the first failed step) take the original's recorded results (no model, tool or sandbox call; their `StepSucceeded` carries `reused: { runId, seq }`); `fromStep` and everything downstream run afresh. The new run has `restartOf`, the original lists it in `restarts`. `Idempotency-Key`: a retry returns the same run.",
  request: {
    params: z.object({ runId: z.string() }),
    query: z.object({ wait: z.coerce.number().min(0).max(60).optional() }),
    headers: idempotencyHeader,
    body: { content: { "application/json": { schema: RestartBody } }, required: false },
  },
  responses: {
    200: json(RunResponse.extend({ plan: ForkPlan }), "The new run ended within the wait"),
    202: json(RunResponse.extend({ plan: ForkPlan }), "The new run is started (or was, by the same Idempotency-Key)"),
    ...refusals,
  },
});

runForkRoutes.openapi(restartRoute, async (c) => {
  const { runId } = c.req.valid("param");
  // The body is optional (restart from the first failed step): an empty one is `{}`.
  const text = await c.req.text();
  const parsed = RestartBody.safeParse(text.trim() === "" ? {} : parseJson(text));
  if (!parsed.success)
    throw new ApiError("invalid_request", `The restart body is invalid: ${parsed.error.issues.map((i) => i.message).join("; ")}`);
  const { wait } = c.req.valid("query");
  const restarted = await restartRun(c.get("services"), c.get("tenant"), runId, {
    fromStep: parsed.data.fromStep,
    idempotencyKey: c.req.valid("header")["idempotency-key"],
    waitMs: wait ? wait * 1_000 : undefined,
  });
  const links = runLinks(new URL(c.req.url).origin, restarted.runId);
  const plan = { ...restarted.plan, sourceRunId: runId, fromStep: restarted.fromStep };
  return c.json({ run: toRun(restarted.view), links, plan } as never, isEndedStatus(restarted.view.status) ? 200 : 202, {
    location: links.self,
  });
});

const forkRoute = createRoute({
  method: "post",
  path: "/runs/{runId}/fork",
  operationId: "forkRun",
  tags: ["runs"],
  summary: "Fork an ended run with another input, model or prompt",
  description:
    "Applies the edits to the run's LWIR (or takes the given `lwir`), validates, binds and locks it as a version (no planner) and starts a new run with `forkOf`. A step reuses the original's recorded result exactly when its content key is unchanged: its definition (kind, `with`, `output`, the slot's provider and model, the tool's descriptor hash, code file hashes) and its resolved inputs. The answer lists each step as reused or re-run, the estimated model usage (from the original's) and `sideEffects`: tool calls that would run again. `?dryRun=true` answers the plan and starts nothing.",
  request: {
    params: z.object({ runId: z.string() }),
    query: z.object({ wait: z.coerce.number().min(0).max(60).optional(), dryRun: z.enum(["true", "false"]).optional() }),
    headers: idempotencyHeader,
    body: { content: { "application/json": { schema: ForkBody } }, required: true },
  },
  responses: {
    200: json(
      z.object({ run: RunResponse.shape.run.optional(), links: RunResponse.shape.links.optional(), plan: ForkPlan }),
      "The plan (`dryRun=true`, nothing started), or the new run ended within the wait",
    ),
    202: json(RunResponse.extend({ plan: ForkPlan }), "The new run is started (or was, by the same Idempotency-Key)"),
    ...refusals,
  },
});

runForkRoutes.openapi(forkRoute, async (c) => {
  const { runId } = c.req.valid("param");
  const body = c.req.valid("json");
  const { wait, dryRun } = c.req.valid("query");
  const forked = await forkRun(c.get("services"), c.get("tenant"), runId, {
    ...(body.input !== undefined ? { input: body.input } : {}),
    ...(body.models ? { models: body.models } : {}),
    ...(body.steps ? { steps: body.steps } : {}),
    ...(body.lwir !== undefined ? { lwir: body.lwir } : {}),
    idempotencyKey: c.req.valid("header")["idempotency-key"],
    dryRun: dryRun === "true",
    waitMs: wait ? wait * 1_000 : undefined,
  });
  const { steps, estimate, sideEffects, sourceRunId, versionId } = forked;
  const plan = { steps, estimate, sideEffects, sourceRunId, versionId };
  if (forked.dryRun) return c.json({ plan } as never, 200);
  const links = runLinks(new URL(c.req.url).origin, forked.runId);
  return c.json({ run: toRun(forked.view), links, plan } as never, isEndedStatus(forked.view.status) ? 200 : 202, { location: links.self });
});

const compareRoute = createRoute({
  method: "get",
  path: "/runs/{runId}/compare/{otherRunId}",
  operationId: "compareRuns",
  tags: ["runs"],
  summary: "Compare two runs step by step",
  description:
    "Per step (of both versions): whether it was reused or ran, both outputs with a JSON diff, duration, tokens and cost, side by side. Any two of the tenant's runs; made for a fork or restart and its original.",
  request: { params: z.object({ runId: z.string(), otherRunId: z.string() }) },
  responses: { 200: json(RunComparison, "The comparison"), ...runErrors },
});

runForkRoutes.openapi(compareRoute, async (c) => {
  const { runId, otherRunId } = c.req.valid("param");
  return c.json((await compareRuns(c.get("services"), c.get("tenant"), runId, otherRunId)) as never, 200);
});

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError("invalid_json", "The request body is not valid JSON");
  }
}
