import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { ApiEnv } from "../api-env.ts";
import { requireTenant } from "../auth.ts";
import { type PauseAction, pausedBy, pauseTenantRun } from "../pause-operations.ts";
import { runLinks } from "../run-links.ts";
import { toRun } from "../run-operations.ts";
import { ErrorBody, json, RunResponse, runErrors } from "../schemas.ts";

/** Pause and resume (docs/runs.md, "Pause and resume"): operations on a started run besides cancel. */
export const runLifecycleRoutes = new OpenAPIHono<ApiEnv>();
runLifecycleRoutes.use("/runs/*", requireTenant());

const DESCRIPTIONS: Record<PauseAction, { summary: string; description: string; ok: string }> = {
  pause: {
    summary: "Pause a run: nothing new starts until it is resumed",
    description:
      "Appends `RunPaused` (with the token that asked): no new step, model call, tool call or section occurrence starts; calls in flight finish and are recorded. The run's status is `paused`. Its sleeps and signal timeouts keep their deadlines (docs/runs.md). Pausing a paused run answers it unchanged; an ended run is 409 `run_ended`.",
    ok: "The run, paused",
  },
  resume: {
    summary: "Resume a paused run",
    description:
      "Appends `RunResumed`: the run is driven again at once, from where it stopped (a sleep that passed while paused wakes now; queued triggers run in order). Resuming a run that is not paused answers it unchanged; an ended run is 409 `run_ended`.",
    ok: "The run, resumed",
  },
};

for (const action of ["pause", "resume"] as const) {
  const text = DESCRIPTIONS[action];
  const route = createRoute({
    method: "post",
    path: `/runs/{runId}/${action}`,
    operationId: action === "pause" ? "pauseRun" : "resumeRun",
    tags: ["runs"],
    summary: text.summary,
    description: text.description,
    request: { params: z.object({ runId: z.string() }) },
    responses: { 200: json(RunResponse, text.ok), 409: json(ErrorBody, "The run has ended (`run_ended`)"), ...runErrors },
  });
  runLifecycleRoutes.openapi(route, async (c) => {
    const { runId } = c.req.valid("param");
    const view = await pauseTenantRun(c.get("services"), c.get("tenant"), runId, action, pausedBy(c.get("principal")));
    return c.json({ run: toRun(view), links: runLinks(new URL(c.req.url).origin, runId) } as z.infer<typeof RunResponse>, 200);
  });
}
