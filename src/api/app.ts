import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { checkSandbox, SANDBOX_CHECK_SCOPE } from "../engine/sandbox-check.ts";
import { entryRoutes } from "../inspector/entry-routes.ts";
import { inspectorRoutes } from "../inspector/routes.ts";
import { CANONICALIZER_ID } from "../json/canonical-json.ts";
import { LWIR_API_VERSION } from "../lwir/types.ts";
import { insecureConfigurationError, insecureVariables } from "../wiring/insecure-configuration.ts";
import { wire } from "../wiring.ts";
import type { ApiEnv } from "./api-env.ts";
import { authorize } from "./auth.ts";
import { MAX_BODY_BYTES, payloadTooLarge } from "./body-limit.ts";
import { errorResponse, named } from "./errors.ts";
import { liveProjections } from "./live-projections.ts";
import { assertBodyNesting } from "./nesting-depth.ts";
import { OPERATION_TAGS } from "./operation-tags.ts";
import { approvalRoutes } from "./routes/approvals.ts";
import { bulkActionRoutes } from "./routes/bulk-actions.ts";
import { catalogRoutes } from "./routes/catalog.ts";
import { definitionRoutes } from "./routes/definitions.ts";
import { eventRoutes } from "./routes/events.ts";
import { lwirRoutes } from "./routes/lwir.ts";
import { queueRoutes } from "./routes/queues.ts";
import { retentionRoutes } from "./routes/retention.ts";
import { runDeletionRoutes } from "./routes/run-deletion.ts";
import { runForkRoutes } from "./routes/run-forks.ts";
import { runLifecycleRoutes } from "./routes/run-lifecycle.ts";
import { runStreamRoutes } from "./routes/run-stream.ts";
import { runRoutes } from "./routes/runs.ts";
import { secretRoutes } from "./routes/secrets.ts";
import { sectionRoutes } from "./routes/sections.ts";
import { signalRoutes } from "./routes/signals.ts";
import { tokenRoutes } from "./routes/tokens.ts";
import { triggerRoutes } from "./routes/triggers.ts";
import { webhookRoutes } from "./routes/webhooks.ts";
import { zodFindings } from "./zod-findings.ts";

export { MAX_BODY_BYTES };

/** The Worker's HTTP surface: the /v1 JSON API with its OpenAPI document. */
export const app = new OpenAPIHono<ApiEnv>({
  // Validation failures of any route answer in the API's one error shape.
  defaultHook: (result, c) => {
    if (!result.success) {
      return named(c, "invalid_request", `The request's ${result.target} is invalid`, zodFindings(result.error.issues));
    }
  },
});

// A deployed Worker holding a well-known example value (a token, secret or key from
// .dev.vars.example) is open to anyone who read it: every route but health refuses with 503
// `insecure_configuration`, naming the variables. Local development sets LITTLE_ENV=development.
app.use("*", async (c, next) => {
  if (new URL(c.req.url).pathname !== "/v1/health") {
    const insecure = insecureVariables(c.env);
    if (insecure.length > 0) throw insecureConfigurationError(insecure);
  }
  await next();
});

// The routes' ports: the isolate's wiring (src/wiring.ts), built once and reused by every request.
app.use("/v1/*", async (c, next) => {
  c.set("services", wire(c.env));
  await next();
});
// Every /v1 route: token, expiry, revocation and the route's scope (src/api/route-scopes.ts).
app.use("/v1/*", authorize());
// The first request an isolate serves records every live definition's projection (one D1 batch).
app.use("/v1/*", liveProjections());
app.use(
  "/v1/*",
  bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw payloadTooLarge(MAX_BODY_BYTES);
    },
  }),
);
// A JSON body nested past any acceptable depth is refused before anything parses it (nesting-depth.ts).
// Webhooks read their raw bytes to verify the signature first, and check after (verify-webhook.ts).
app.use("/v1/*", async (c, next) => {
  if (c.req.method !== "GET" && c.req.method !== "HEAD" && !c.req.path.startsWith("/v1/hooks/")) assertBodyNesting(await c.req.text());
  await next();
});

/**
 * Liveness and wiring: answers 200 when the Worker runs and D1 answers a query.
 *
 * @example
 * curl localhost:8787/v1/health // {"ok":true,"service":"little-workflow",...}
 */
app.get("/v1/health", async (c) => {
  const insecure = insecureVariables(c.env);
  if (insecure.length > 0) {
    const { code, message } = insecureConfigurationError(insecure);
    return c.json({ ok: false, service: "little-workflow", error: { code, message }, insecureVariables: insecure }, 503);
  }
  const d1 = await c.env.DB.prepare("SELECT 1 AS ok")
    .first<{ ok: number }>()
    .then((row) => (row?.ok === 1 ? "ok" : "unavailable"))
    .catch(() => "unavailable" as const);
  const ok = d1 === "ok";
  return c.json(
    {
      ok,
      service: "little-workflow",
      lwirApiVersion: LWIR_API_VERSION,
      canonicalizer: CANONICALIZER_ID,
      sandbox: c.env.LITTLE_SANDBOX,
      d1,
    },
    ok ? 200 : 503,
  );
});

/**
 * The sandbox's smoke check (`little deploy --sandbox container` calls it after deploying): one
 * bash command and one code.run through the configured sandbox, in one fixed scope, so callers
 * cannot start more than its two sandboxes. 503 with `code_runner_unavailable` and the remedy
 * when the sandbox cannot run commands (docs/sandbox.md, "Network namespaces").
 *
 * @example
 * curl https://<worker>/v1/health/sandbox // {"ok":true,"sandbox":"container","bashMs":48,"codeRunMs":71}
 */
app.get("/v1/health/sandbox", async (c) => {
  const report = await checkSandbox(wire(c.env, { runId: SANDBOX_CHECK_SCOPE }).sandbox);
  return c.json({ sandbox: c.env.LITTLE_SANDBOX, ...report }, report.ok ? 200 : 503);
});

app.route("/v1", bulkActionRoutes);
app.route("/v1", runDeletionRoutes);
app.route("/v1", runRoutes);
app.route("/v1", runForkRoutes);
app.route("/v1", runLifecycleRoutes);
app.route("/v1", eventRoutes);
app.route("/v1", runStreamRoutes);
app.route("/v1", catalogRoutes);
app.route("/v1", definitionRoutes);
app.route("/v1", lwirRoutes);
app.route("/v1", tokenRoutes);
app.route("/v1", retentionRoutes);
app.route("/v1", triggerRoutes);
app.route("/v1", sectionRoutes);
app.route("/v1", approvalRoutes);
app.route("/v1", secretRoutes);
app.route("/v1", webhookRoutes);
app.route("/v1", signalRoutes);
app.route("/v1", queueRoutes);
// The run inspector's pages and assets (/login, /runs, /runs/:runId, /inspector/*).
app.route("/", inspectorRoutes);
// `/` → `/runs`, and the favicon.
app.route("/", entryRoutes);

app.openAPIRegistry.registerComponent("securitySchemes", "bearer", { type: "http", scheme: "bearer" });
// The server is the Worker that answers: a generated client's default base URL is where its document came from.
app.doc31("/v1/openapi.json", (c) => ({
  openapi: "3.1.0",
  info: {
    title: "Little Workflow API",
    version: "0.1.0",
    description:
      "Durable, planner-compiled AI workflows at the edge. Every route but health, this document and webhooks needs a bearer token.",
  },
  servers: [{ url: new URL(c.req.url).origin, description: "The Worker that served this document" }],
  security: [{ bearer: [] }],
  tags: [...OPERATION_TAGS],
}));

app.notFound((c) => named(c, "not_found", `No route for ${c.req.method} ${new URL(c.req.url).pathname}`));
app.onError((error, c) => errorResponse(c, error));
