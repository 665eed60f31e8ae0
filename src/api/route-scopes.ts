import type { TokenScope } from "../ports/token-store.ts";

/**
 * What each route needs: `public` (no token: the route checks something else, e.g. a webhook
 * signature) or a token scope. One table for the whole Worker, so that a route is either listed
 * here or needs `admin` (fail closed): a new route nobody mapped is refused to narrow tokens, never
 * open. A test checks that every operation of the OpenAPI document is listed.
 *
 * Keys are `METHOD path` with OpenAPI-style `{param}` segments, paths under `/v1`, plus the run
 * inspector's pages (paths not under `/v1`).
 */
export const ROUTE_SCOPES: Readonly<Record<string, TokenScope | "public">> = {
  "GET /v1/health": "public",
  "GET /v1/openapi.json": "public",
  // Signed by Standard Webhooks, not by a bearer token.
  "POST /v1/hooks/{workflowId}": "public",
  "POST /v1/hooks/{workflowId}/runs/{runId}": "public",

  "GET /v1/workflows": "runs:read",
  "GET /v1/versions/{versionId}": "runs:read",
  "GET /v1/definitions/{hash}": "runs:read",
  "GET /v1/workflows/{workflowId}/definition": "runs:read",
  "GET /v1/runs": "runs:read",
  "GET /v1/runs/{runId}": "runs:read",
  "GET /v1/runs/{runId}/events": "runs:read",
  "GET /v1/runs/{runId}/events/stream": "runs:read",
  "GET /v1/runs/{runId}/stream": "runs:read",
  "GET /v1/runs/{runId}/approvals": "runs:read",
  "GET /v1/workflows/{workflowId}/sections": "runs:read",
  "GET /v1/workflows/{workflowId}/queues": "runs:read",
  "GET /v1/lwir/schema": "runs:read",
  // Validation stores nothing: reading, not writing.
  "POST /v1/lwir/validate": "runs:read",

  "POST /v1/workflows/{workflowId}/runs": "runs:write",
  "POST /v1/workflows/{workflowId}/anchors": "runs:write",
  "POST /v1/lwir/runs": "runs:write",
  "POST /v1/runs/{runId}/cancel": "runs:write",
  "POST /v1/runs/{runId}/restart": "runs:write",
  "POST /v1/runs/{runId}/fork": "runs:write",
  "GET /v1/runs/{runId}/compare/{otherRunId}": "runs:read",
  "POST /v1/runs/{runId}/pause": "runs:write",
  "POST /v1/runs/{runId}/resume": "runs:write",
  "POST /v1/runs/{runId}/triggers": "runs:write",
  "POST /v1/runs/{runId}/supersede": "runs:write",
  "GET /v1/runs/{runId}/signals": "runs:read",
  "POST /v1/runs/{runId}/signals": "runs:write",

  // Deleting purges a run's data for good: a scope of its own, so a token that starts and cancels runs can't.
  "DELETE /v1/runs/{runId}": "runs:delete",
  // The route's scope; a `delete` action also needs `runs:delete` (checked by the route).
  "POST /v1/runs/bulk": "runs:write",
  "GET /v1/runs/bulk/{jobId}": "runs:read",

  // A person deciding a run's approval gate: the one thing an `approve` token is for.
  "POST /v1/runs/{runId}/approvals/{approvalId}": "approve",

  // Deciding what code runs without a planner, what secrets exist, and who holds tokens.
  "POST /v1/definitions/{hash}/approve": "admin",
  "DELETE /v1/definitions/{hash}/approve": "admin",
  "POST /v1/definitions/{hash}/pin": "admin",
  "DELETE /v1/definitions/{hash}/pin": "admin",
  "GET /v1/secrets": "admin",
  "PUT /v1/secrets/{name}": "admin",
  "DELETE /v1/secrets/{name}": "admin",
  "POST /v1/tokens": "admin",
  "GET /v1/tokens": "admin",
  "DELETE /v1/tokens/{tokenId}": "admin",
  // A tenant's retention override (docs/runs.md, "Retention and deletion").
  "GET /v1/tenants/{tenant}/retention": "admin",
  "PUT /v1/tenants/{tenant}/retention": "admin",

  // The run inspector's pages read runs (its data comes from the routes above).
  "GET /runs": "runs:read",
  "GET /runs/{runId}": "runs:read",
  "GET /runs/{runId}/compare/{otherRunId}": "runs:read",
  // One fixed bash command and code.run in one fixed scope (app.ts): the deploy's smoke check.
  "GET /v1/health/sandbox": "public",
};

/** Scope needed by routes not in {@link ROUTE_SCOPES}. */
export const UNLISTED_ROUTE_SCOPE: TokenScope = "admin";

const compiled = Object.entries(ROUTE_SCOPES).map(([key, access]) => {
  const [method, path] = key.split(" ") as [string, string];
  const pattern = new RegExp(`^${path.replace(/[.]/g, "\\.").replace(/\{[^}]+\}/g, "[^/]+")}/?$`);
  return { method, pattern, access };
});

/**
 * The access a request needs, from its method and path (HEAD as GET).
 *
 * @example
 * routeAccess("POST", "/v1/runs/r1/cancel") // "runs:write"
 * routeAccess("GET", "/v1/something-new")   // "admin"
 */
export function routeAccess(method: string, path: string): TokenScope | "public" {
  const m = method.toUpperCase() === "HEAD" ? "GET" : method.toUpperCase();
  // Literal segments win over parameters (`/runs/{runId}/events` vs `/runs/{runId}/events/stream`
  // can't collide since patterns are anchored); the first full match is the route.
  for (const route of compiled) if (route.method === m && route.pattern.test(path)) return route.access;
  return UNLISTED_ROUTE_SCOPE;
}

/** True when a token's scopes grant `needed`: `admin` grants every scope. */
export function scopesAllow(scopes: readonly TokenScope[], needed: TokenScope): boolean {
  return scopes.includes(needed) || scopes.includes("admin");
}
