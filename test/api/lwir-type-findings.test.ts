import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { boundSeedLwir, set } from "../lwir/fixtures.ts";
import { call } from "./support/api-call.ts";

const INPUT = { ticketId: "T-9", transcript: "Two-factor codes never arrive." };

beforeEach(() => overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {} }) }));
afterEach(() => overrideWiring({}));

describe("the template type pass through the API", () => {
  const wholeInputPrompt = () => set(boundSeedLwir(), ["steps", 0, "with", "prompt"], "{{ input }}");

  it("POST /v1/lwir/validate?workflow= reports template.type_mismatch with the fix; without a workflow only structure is checked", async () => {
    const bound = await call("POST", "/v1/lwir/validate?workflow=support.summarize-ticket", { body: wholeInputPrompt() });
    expect(bound.status).toBe(200);
    expect(bound.json.valid).toBe(false);
    const findings = bound.json.findings as { code: string; path: string; message: string }[];
    expect(findings.map(({ code, path }) => ({ code, path }))).toEqual([
      { code: "template.type_mismatch", path: "$.steps[0].with.prompt" },
    ]);
    expect(findings[0]?.message).toContain("json(…)");
    const structural = await call("POST", "/v1/lwir/validate", { body: wholeInputPrompt() });
    expect(structural.json.valid).toBe(true);
  });

  it("POST /v1/lwir/runs refuses it with 400 lwir_invalid and the finding, starting nothing", async () => {
    const runId = `run_typed_${crypto.randomUUID().slice(0, 8)}`;
    const refused = await call("POST", "/v1/lwir/runs", { body: { lwir: wholeInputPrompt(), input: INPUT, runId } });
    expect(refused.status).toBe(400);
    expect(refused.json.error?.code).toBe("lwir_invalid");
    expect(refused.json.error?.findings?.map((f) => (f as { code?: string }).code)).toEqual(["template.type_mismatch"]);
    expect((await call("GET", `/v1/runs/${runId}`)).status).toBe(404);
  });
});
