import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

describe("GET /v1/health", () => {
  it("answers 200 with the wiring it checked, through the real Worker and D1", async () => {
    const res = await exports.default.fetch("http://little.test/v1/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      ok: true,
      service: "little-workflow",
      lwirApiVersion: "littleworkflow.dev/v0.1",
      canonicalizer: "little-workflow-canonical-json@alpha",
      sandbox: "isolate",
      d1: "ok",
    });
  });

  it("answers an unknown route with a JSON 404 carrying a stable code", async () => {
    const res = await exports.default.fetch("http://little.test/v1/nope");
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: { code: string } };
    expect(body.error.code).toBe("not_found");
  });
});
