import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

describe("the Worker's front door", () => {
  it("redirects / to the run list instead of a JSON 404", async () => {
    const res = await exports.default.fetch("http://little.test/", { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/runs");
  });

  it("serves a favicon at /favicon.svg and /favicon.ico, and the pages link it", async () => {
    for (const path of ["/favicon.svg", "/favicon.ico"]) {
      const res = await exports.default.fetch(`http://little.test${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/svg+xml");
      expect(await res.text()).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    }
    const login = await (await exports.default.fetch("http://little.test/login")).text();
    expect(login).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
  });
});
