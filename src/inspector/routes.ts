import { type Context, Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { ApiEnv } from "../api/api-env.ts";
import { ApiError } from "../api/api-error.ts";
import { authenticate, bearerToken, type Principal, SESSION_COOKIE } from "../api/auth.ts";
import { routeAccess, scopesAllow } from "../api/route-scopes.ts";
import { digestText } from "../json/digest.ts";
import { wire } from "../wiring.ts";
import { CLIENT_SCRIPT } from "./client-bundle.generated.ts";
import { LOGIN_FORM_INVALID, readLoginForm } from "./login-form.ts";
import { ASSET_PATHS, loginPage, notFoundPage, runPage, runsPage } from "./pages.ts";
import { INSPECTOR_CSS } from "./styles.ts";

/** The largest login form accepted. */
const LOGIN_MAX_BYTES = 8 * 1024;
/** How long a login lasts. */
const SESSION_SECONDS = 12 * 60 * 60;

/**
 * Only the Worker's own script, stylesheet and API: a page that loads nothing from elsewhere
 * works with no network and cannot be made to.
 */
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

type InspectorEnv = { Bindings: ApiEnv["Bindings"]; Variables: { tenant: string; scopes: string } };

/**
 * The run inspector: `/login`, `/logout`, `/runs` and `/runs/:runId` (HTML), and its two bundled
 * assets. Pages need the session cookie (or a bearer header); without one, HTML answers redirect
 * to the login form. The pages' data comes from the /v1 API, which accepts the same cookie.
 *
 * @example
 * app.route("/", inspectorRoutes); // then open http://127.0.0.1:8787/runs
 */
export const inspectorRoutes = new Hono<InspectorEnv>();

const asset = (body: string, type: string) => {
  const etag = `"${digestText(body).slice(7, 39)}"`;
  return (c: Context) =>
    c.req.header("if-none-match") === etag
      ? c.body(null, 304, { etag })
      : c.body(body, 200, { "content-type": type, etag, "cache-control": "no-cache", "x-content-type-options": "nosniff" });
};
inspectorRoutes.get(ASSET_PATHS.script, asset(CLIENT_SCRIPT, "text/javascript; charset=utf-8"));
inspectorRoutes.get(ASSET_PATHS.style, asset(INSPECTOR_CSS, "text/css; charset=utf-8"));

inspectorRoutes.get("/login", (c) => html(c, loginPage(safeNext(c.req.query("next")), null)));

// A token and a path: anything bigger is not a login.
inspectorRoutes.post(
  "/login",
  bodyLimit({ maxSize: LOGIN_MAX_BYTES, onError: (c) => html(c, loginPage("/runs", "That form is too large."), 413) }),
);
inspectorRoutes.post("/login", async (c) => {
  // A login form posted from another site would sign the visitor in as someone else.
  const site = c.req.header("sec-fetch-site");
  if (site !== undefined && site !== "same-origin" && site !== "none") return html(c, loginPage("/runs", "Sign in from this page."), 403);
  const form = await readLoginForm(c);
  if (!form) {
    const page = html(c, loginPage("/runs", `That form could not be read (${LOGIN_FORM_INVALID}).`), 400);
    page.headers.set("x-little-error", LOGIN_FORM_INVALID);
    return page;
  }
  const token = form.token;
  const next = safeNext(form.next);
  const principal = token === "" ? null : await pagePrincipal(c, token);
  if (principal?.kind !== "tenant") return html(c, loginPage(next, "That token is not valid."), 401);
  // A session that could open no page is no login.
  if (!scopesAllow(principal.scopes, "runs:read")) return html(c, loginPage(next, 'That token lacks the "runs:read" scope.'), 403);
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "Strict",
    path: "/",
    secure: new URL(c.req.url).protocol === "https:",
    maxAge: SESSION_SECONDS,
  });
  return c.redirect(next, 303);
});

inspectorRoutes.post("/logout", (c) => {
  deleteCookie(c, SESSION_COOKIE, { path: "/" });
  return c.redirect("/login", 303);
});

/** HTML pages: a tenant from the bearer header or the session cookie, else a redirect to login. */
const requirePageTenant: MiddlewareHandler<InspectorEnv> = async (c, next) => {
  const token = bearerToken(c.req.header("authorization")) ?? getCookie(c, SESSION_COOKIE) ?? null;
  // Expired, revoked or unknown: sign in again.
  const principal = token ? await pagePrincipal(c, token) : null;
  if (principal?.kind !== "tenant") {
    const url = new URL(c.req.url);
    return c.redirect(`/login?next=${encodeURIComponent(url.pathname + url.search)}`, 302);
  }
  const needed = routeAccess(c.req.method, c.req.path);
  if (needed !== "public" && !scopesAllow(principal.scopes, needed))
    return html(c, loginPage("/runs", `That token lacks the "${needed}" scope this page needs.`), 403);
  c.set("tenant", principal.tenant);
  // The run page shows only the actions the token may take (run-actions.js); the API checks again.
  c.set("scopes", principal.scopes.join(" "));
  await next();
};

/** Who a page's token is, or null when it is not a live token (401s become a login form, not an error page). */
async function pagePrincipal(c: Context<InspectorEnv>, token: string): Promise<Principal | null> {
  return authenticate(c.env, wire(c.env).tokens, token, Date.now()).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  });
}
inspectorRoutes.use("/runs", requirePageTenant);
inspectorRoutes.use("/runs/*", requirePageTenant);

inspectorRoutes.get("/runs", (c) =>
  html(c, runsPage(c.var.tenant, { workflow: c.req.query("workflow") ?? "", status: c.req.query("status") ?? "" })),
);

inspectorRoutes.get("/runs/:runId", async (c) => {
  const runId = c.req.param("runId");
  // Another tenant's run is a 404 like any missing run: its id says nothing about who owns it.
  const entry = await wire(c.env).runs.get(c.var.tenant, runId);
  if (!entry) return html(c, notFoundPage(c.var.tenant, runId), 404);
  return html(c, runPage(c.var.tenant, runId, c.var.scopes));
});

function html(c: Context, body: string, status: 200 | 400 | 401 | 403 | 404 | 413 = 200): Response {
  return c.html(body, status, {
    "content-security-policy": CSP,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
  });
}

/** Where the inspector goes after login when `next` is missing or not a path of this site. */
const DEFAULT_NEXT = "/runs";
/** A stand-in origin: `next` is resolved against it, and anything that leaves it is refused. */
const PROBE_ORIGIN = "https://inspector.invalid";

/**
 * Where to go after login: a path on this site only. Browsers drop tabs and newlines inside a URL
 * and read `\` as `/`, so `/\t/evil.example/` becomes `//evil.example/`: a prefix check is not
 * enough. `next` is refused when it holds a control character, a space or a backslash, or when it
 * resolves to another origin; what is returned is the URL parser's own serialization of the path.
 */
export function safeNext(next: string | undefined): string {
  if (!next?.startsWith("/") || hasUnsafeChar(next)) return DEFAULT_NEXT;
  let url: URL;
  try {
    url = new URL(next, PROBE_ORIGIN);
  } catch {
    return DEFAULT_NEXT;
  }
  if (url.origin !== PROBE_ORIGIN) return DEFAULT_NEXT;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // The serialized path must itself stay a path (never `//…`), read again the same way.
  return path.startsWith("//") || new URL(path, PROBE_ORIGIN).origin !== PROBE_ORIGIN ? DEFAULT_NEXT : path;
}

/** A C0 or C1 control character, a space or a backslash: what browsers drop or reinterpret in a URL. */
export function hasUnsafeChar(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x5c) return true;
  }
  return false;
}
