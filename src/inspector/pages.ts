/**
 * The inspector's HTML: small server-rendered shells that the bundled client script fills from the
 * /v1 API. Every interpolated value goes through {@link escapeHtml}; the pages load nothing but
 * the Worker's own script and stylesheet (the CSP in routes.ts enforces that).
 */

import { RUN_STATUSES } from "../ports/run-status.ts";
import { FAVICON_PATH } from "./entry-routes.ts";

export const ASSET_PATHS = { script: "/inspector/app.js", style: "/inspector/app.css" } as const;

/** Escapes text for HTML content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;");
}

type Shell = { title: string; page: string; tenant: string | null; data?: Record<string, string>; main: string };

function shell({ title, page, tenant, data = {}, main }: Shell): string {
  const attrs = Object.entries(data)
    .map(([k, v]) => ` data-${k}="${escapeHtml(v)}"`)
    .join("");
  const nav = tenant
    ? `<nav aria-label="Account"><a href="/runs">Runs</a><span class="tenant">tenant <strong>${escapeHtml(tenant)}</strong></span>` +
      `<form method="post" action="/logout"><button type="submit" class="link-button">Sign out</button></form></nav>`
    : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Little Workflow</title>
<link rel="stylesheet" href="${ASSET_PATHS.style}">
<link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">
</head>
<body data-page="${escapeHtml(page)}"${attrs}>
<a class="skip" href="#main">Skip to content</a>
<header class="top"><a class="brand" href="/runs">Little Workflow · run inspector</a>${nav}</header>
<main id="main" tabindex="-1">
${main}
</main>
${page === "login" || page === "not-found" ? "" : `<script src="${ASSET_PATHS.script}" defer></script>`}
</body>
</html>`;
}

/** The login form: a token is posted once and kept in an HttpOnly cookie. */
export function loginPage(next: string, error: string | null): string {
  const alert = error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : "";
  return shell({
    title: "Sign in",
    page: "login",
    tenant: null,
    main: `<h1>Sign in</h1>
<p>Use an API token (the same one you send as <code>Authorization: Bearer …</code>).</p>
${alert}
<form method="post" action="/login" class="login">
<label for="token">API token</label>
<input id="token" name="token" type="password" autocomplete="current-password" required autofocus>
<input type="hidden" name="next" value="${escapeHtml(next)}">
<button type="submit">Sign in</button>
</form>`,
  });
}

/** The run list; filters are plain query parameters, so a filtered list is a link. */
export function runsPage(tenant: string, filters: { workflow: string; status: string }): string {
  const options = ["", ...RUN_STATUSES]
    .map((s) => `<option value="${s}"${s === filters.status ? " selected" : ""}>${s === "" ? "any" : s}</option>`)
    .join("");
  return shell({
    title: "Runs",
    page: "runs",
    tenant,
    main: `<h1>Runs</h1>
<form id="filters" method="get" action="/runs" class="filters">
<label>Workflow <input name="workflow" value="${escapeHtml(filters.workflow)}" placeholder="any"></label>
<label>Status <select name="status">${options}</select></label>
<button type="submit">Filter</button>
</form>
<p id="runs-state" role="status">Loading runs…</p>
<div class="table-scroll">
<table id="runs-table">
<caption class="visually-hidden">Runs, newest first</caption>
<thead><tr><th scope="col">Run</th><th scope="col">Workflow</th><th scope="col">Status</th><th scope="col">Started</th><th scope="col">Duration</th><th scope="col">Version</th><th scope="col">Tokens</th></tr></thead>
<tbody></tbody>
</table>
</div>
<button id="more" type="button" hidden>Load more</button>`,
  });
}

/** One run: its summary, then its DAG and step details (in the first screenful), result, timeline and version. */
export function runPage(
  tenant: string,
  runId: string,
  scopes: readonly string[] = [],
  actions: { readonly canDelete?: boolean } = {},
): string {
  return shell({
    title: `Run ${runId}`,
    page: "run",
    tenant,
    // What the page's token may do: actions it may not take are not shown (the API refuses them anyway).
    data: { "run-id": runId, scopes: scopes.join(" "), ...(actions.canDelete ? { "can-delete": "true" } : {}) },
    main: `<p class="crumbs"><a href="/runs">← All runs</a></p>
<h1>Run <code>${escapeHtml(runId)}</code></h1>
<div id="run-actions" class="run-actions"></div>
<section id="summary" aria-labelledby="summary-h"><h2 id="summary-h" class="visually-hidden">Summary</h2><p role="status" id="live-state">Loading…</p><dl id="summary-list"></dl><details id="run-input"><summary>Run input</summary><pre id="run-input-body">—</pre></details></section>
<section id="actions" aria-labelledby="actions-h" hidden><h2 id="actions-h">Actions</h2><div id="actions-body"></div></section>
<section id="waits" aria-labelledby="waits-h" hidden><h2 id="waits-h">Waiting</h2><div id="waits-body"></div></section>
<section id="live-output" aria-labelledby="live-output-h" hidden><h2 id="live-output-h">Live model output</h2><p class="hint">What the model is writing now, as the provider streams it; the logged answer replaces it when the call ends.</p><div id="live-output-body"></div></section>
<div class="run-grid">
<section id="dag-section" aria-labelledby="dag-h"><h2 id="dag-h">Steps</h2>
<p class="hint">Select a step (click, or Tab to it and press Enter) for its attempts, calls and output.</p>
<div class="dag-scroll"><svg id="dag" role="group" aria-label="Workflow steps" xmlns="http://www.w3.org/2000/svg"></svg></div>
<ul class="legend" id="legend"></ul></section>
<section id="details" aria-labelledby="details-h" tabindex="-1"><h2 id="details-h">Step details</h2><div id="details-body"><p>No step selected.</p></div></section>
</div>
<section id="result" aria-labelledby="result-h" hidden><h2 id="result-h">Result</h2><div id="result-body"></div></section>
<section id="fork-actions" aria-labelledby="fork-actions-h" hidden><h2 id="fork-actions-h">Restart, fork, compare</h2><div class="body"></div></section>
<section id="cycles" aria-labelledby="cycles-h" hidden><h2 id="cycles-h">Cycles</h2><p class="hint">The run's supervisor judged each cycle's output: <code>replan</code> compiled a new version, <code>accept</code> ended the loop. A failed cycle shows its cause; the next plan was told of it.</p><div id="cycles-body"></div></section>
<section id="occurrences" aria-labelledby="occurrences-h" hidden><h2 id="occurrences-h">Occurrences</h2><p class="hint">This run is a section: it serves many triggers. The steps above show the latest occurrence.</p><div id="occurrences-body"></div></section>
<section id="timeline-section" aria-labelledby="timeline-h"><h2 id="timeline-h">Timeline</h2><ol id="timeline" class="timeline"></ol></section>
<section id="version" aria-labelledby="version-h"><h2 id="version-h">Version</h2><div id="version-body"><p>Not compiled yet.</p></div></section>`,
  });
}

/** Two runs side by side (`/runs/{a}/compare/{b}`): their DAGs with each step marked, and a table; filled by the client. */
export function comparePage(tenant: string, a: string, b: string): string {
  const link = (id: string) => `<a href="/runs/${encodeURIComponent(id)}"><code>${escapeHtml(id)}</code></a>`;
  return shell({
    title: `Compare ${a} and ${b}`,
    page: "compare",
    tenant,
    data: { a, b },
    main: `<p class="crumbs"><a href="/runs">← All runs</a></p>
<h1>Compare ${link(a)} and ${link(b)}</h1>
<p role="status" id="compare-state">Loading…</p>
<p class="hint">Marked on each DAG: <span class="badge compare-reused">reused</span> (taken from the source run, nothing called), <span class="badge compare-changed">changed</span> (ran, output differs), <span class="badge compare-same">same</span> (ran, same output).</p>
<div class="run-grid">
<section aria-labelledby="dag-a-h"><h2 id="dag-a-h">A</h2><div class="dag-scroll"><svg id="dag-a" role="group" aria-label="Steps of run A" xmlns="http://www.w3.org/2000/svg"></svg></div></section>
<section aria-labelledby="dag-b-h"><h2 id="dag-b-h">B</h2><div class="dag-scroll"><svg id="dag-b" role="group" aria-label="Steps of run B" xmlns="http://www.w3.org/2000/svg"></svg></div></section>
</div>
<section aria-labelledby="compare-h"><h2 id="compare-h">Step by step</h2><div id="compare-body"></div></section>`,
  });
}

/** A run this tenant does not have (another tenant's run looks exactly like no run). */
export function notFoundPage(tenant: string, runId: string): string {
  return shell({
    title: "Run not found",
    page: "not-found",
    tenant,
    main: `<h1>Run not found</h1><p>There is no run <code>${escapeHtml(runId)}</code>.</p><p><a href="/runs">All runs</a></p>`,
  });
}

/** A deleted run (410): it says so and when, since a bookmarked link would otherwise look broken; none of its data is left. */
export function deletedPage(tenant: string, runId: string, deletedAt: number): string {
  const at = new Date(deletedAt).toISOString();
  return shell({
    title: "Run deleted",
    page: "deleted",
    tenant,
    main: `<h1>Run deleted</h1><p>Run <code>${escapeHtml(runId)}</code> was deleted at <time datetime="${at}">${at}</time>; none of its data is kept.</p><p><a href="/runs">All runs</a></p>`,
  });
}
