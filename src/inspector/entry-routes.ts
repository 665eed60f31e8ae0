/**
 * @module The Worker's front door for a person with a browser: `/` goes to the run list (the
 * inspector signs them in first when it must), and the tab gets an icon rather than a 404.
 */
import { Hono } from "hono";

/** The favicon: a small DAG (three nodes, two edges) in the inspector's accent colour. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1f2937"/><path d="M9 10 L16 22 L23 10" stroke="#93c5fd" stroke-width="2.5" fill="none"/><circle cx="9" cy="10" r="4" fill="#60a5fa"/><circle cx="23" cy="10" r="4" fill="#60a5fa"/><circle cx="16" cy="22" r="4" fill="#f9fafb"/></svg>`;

export const FAVICON_PATH = "/favicon.svg";

export const entryRoutes = new Hono();

entryRoutes.get("/", (c) => c.redirect("/runs", 302));

const icon = () => new Response(FAVICON_SVG, { headers: { "content-type": "image/svg+xml", "cache-control": "public, max-age=86400" } });
entryRoutes.get(FAVICON_PATH, icon);
// Browsers ask for /favicon.ico whatever the page links; an SVG answer is shown all the same.
entryRoutes.get("/favicon.ico", icon);
