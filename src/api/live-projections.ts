import type { MiddlewareHandler } from "hono";
import type { WorkflowCatalog } from "../engine/run-environment.ts";
import type { ApiEnv, ApiServices } from "./api-env.ts";
import { capabilitiesOf } from "./workflow-capabilities.ts";

/** Per isolate, per catalog (a test's overridden catalog is another): the recording, once. */
const recorded = new WeakMap<WorkflowCatalog, Promise<number>>();

/**
 * Records the projection of every live definition (what each registered workflow hashes to now)
 * the first time this isolate serves a request, in one batched D1 write that keeps rows already
 * there. So `GET /v1/definitions/<hash>` answers for every hash `GET /v1/workflows` lists, on any
 * isolate, without anyone calling `GET /v1/workflows/:id/definition` first. Later requests await
 * the settled promise (nothing). A workflow whose definition is invalid is skipped (its starts
 * fail with their own error); a failed write is retried on the next request.
 *
 * @example
 * await recordLiveProjections(services); // resolves to the number of definitions written (once)
 */
export function recordLiveProjections(services: ApiServices): Promise<number> {
  let pending = recorded.get(services.workflows);
  if (!pending) {
    pending = record(services);
    recorded.set(services.workflows, pending);
    pending.catch(() => recorded.delete(services.workflows));
  }
  return pending;
}

async function record(services: ApiServices): Promise<number> {
  const entries = [];
  for (const id of services.workflows.ids()) {
    const registered = services.workflows.get(id);
    const caps = registered ? await capabilitiesOf(registered).catch(() => null) : null;
    if (caps) entries.push({ snapshot: caps.snapshot, definitionHash: caps.definitionHash });
  }
  await services.versions.putDefinitions(entries, services.clock.now());
  return entries.length;
}

/** The middleware form: every /v1 request after authentication; a failure is logged, never the request's. */
export function liveProjections(): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    await recordLiveProjections(c.var.services).catch((error: unknown) =>
      console.error(`recording live definition projections failed: ${error instanceof Error ? error.message : String(error)}`),
    );
    await next();
  };
}
