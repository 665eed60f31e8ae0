import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { hasUnsafeChar } from "../../../src/inspector/routes.ts";

// Issue 15, finding 4: the inspector's login redirected to `next` when it merely started with one
// "/", so `/\t/evil.example/` (a tab the browser drops) answered `Location: /\t/evil.example/`,
// which a browser follows to `//evil.example/`. Every `next` below goes through the real login
// form; the Location it answers is resolved the way a browser resolves it (the WHATWG URL parser,
// which drops tabs and newlines and reads `\` as `/`) and must stay on the Worker's origin.

const ORIGIN = "http://little.test";
const DEV = "test-dev-token";

async function login(next: string): Promise<Response> {
  return exports.default.fetch(`${ORIGIN}/login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" },
    body: new URLSearchParams({ token: DEV, next }).toString(),
    redirect: "manual",
  });
}

/** `next` values that a prefix check lets through, or that a browser resolves off-origin. */
const HOSTILE = [
  "/\t/evil.example/",
  "/\n/evil.example/",
  "/\r\n/evil.example",
  "/\\evil.example",
  "/\t\\evil.example",
  "\\/evil.example",
  "//evil.example",
  "///evil.example",
  "/\u0000/evil.example",
  "/\u000b/evil.example",
  "/\u007f/evil.example",
  " //evil.example",
  "/ /evil.example",
  "https://evil.example/runs",
  "http:evil.example",
  "javascript:alert(1)",
  "/a/..//evil.example",
  "/./\t/evil.example",
  "/%2e%2e//evil.example",
  "//%09/evil.example",
  "/\u3000/evil.example",
  "runs",
  "",
];

describe("inspector login: next is a same-origin path or the default page", () => {
  it.each(HOSTILE.map((next) => [JSON.stringify(next), next]))("next=%s stays on the Worker's origin", async (_name, next) => {
    const res = await login(next);
    expect(res.status).toBe(303);
    const location = res.headers.get("location") ?? "";
    // Resolved as a browser would: the same origin, and nothing the parser would drop or turn around.
    expect(new URL(location, ORIGIN).origin).toBe(ORIGIN);
    expect(location).toMatch(/^\/(?![/\\])/);
    expect(hasUnsafeChar(location)).toBe(false);
  });

  it("keeps a same-origin path with its query and fragment", async () => {
    for (const next of ["/runs/run_abc?tab=events", "/runs?status=failed#top", "/runs/a%20b"]) {
      const res = await login(next);
      expect(res.headers.get("location")).toBe(next);
    }
  });

  it("the login page's form carries only a safe next", async () => {
    const res = await exports.default.fetch(`${ORIGIN}/login?next=${encodeURIComponent("/\t/evil.example/")}`);
    const html = await res.text();
    expect(html).not.toContain("evil.example");
  });
});
