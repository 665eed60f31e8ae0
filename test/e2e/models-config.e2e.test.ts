/**
 * Model configuration through real Worker vars under `wrangler dev` (the workerd API tests set the
 * same configuration through the wiring's `modelEnv` seam; this proves the vars path): `live`
 * with no provider key refuses a start with 409 `model_unavailable` and stores nothing, a
 * `LITTLE_MODEL_<SLOT>` var re-points a slot (and the definition hash), and `GET /v1/workflows`
 * shows each slot's readiness. `wrangler dev` runs with `--local`, so the `[ai]` binding does not
 * open a remote session.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, INPUT, SEED_WORKFLOW } from "./support/api.ts";
import { startWranglerDev, type WranglerDev } from "./support/wrangler-dev.ts";

type Slot = {
  id: string;
  role: string;
  provider: string;
  model: string;
  source: string;
  mode: string;
  ready: boolean;
  offline: boolean;
  missing?: string[];
};
type Workflow = { id: string; definitionHash: string; models: Slot[] };

let dev: WranglerDev;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  dev = await startWranglerDev({
    vars: { LITTLE_MODELS: "live", LITTLE_MODEL_GPT_4O_MINI: "anthropic:claude-haiku-4-5", ANTHROPIC_API_KEY: "sk-ant-e2e" },
  });
  api = client(dev.url, dev.devToken);
});
afterAll(async () => {
  await dev?.dispose();
});

describe("model configuration from Worker vars (wrangler dev --local)", () => {
  it("GET /v1/workflows: the override and its key, the declared slots missing OPENAI_API_KEY", async () => {
    const r = await api.call("GET", "/v1/workflows");
    expect(r.status, r.text).toBe(200);
    const seed = (r.json.workflows as Workflow[]).find((w) => w.id === SEED_WORKFLOW) as Workflow;
    expect(seed.models).toEqual([
      expect.objectContaining({
        id: "gpt-5",
        role: "planner",
        provider: "openai.responses",
        source: "definition",
        mode: "live",
        ready: false,
        missing: ["OPENAI_API_KEY"],
      }),
      expect.objectContaining({ id: "gpt-5", role: "step", provider: "openai.responses", ready: false, missing: ["OPENAI_API_KEY"] }),
      expect.objectContaining({
        id: "gpt-4o-mini",
        role: "step",
        provider: "anthropic.messages",
        model: "claude-haiku-4-5",
        source: "override",
        ready: true,
        offline: false,
      }),
    ]);
    expect(seed.models[2]?.missing).toBeUndefined();
  });

  it("a live start with a slot not ready is 409 model_unavailable naming the secret, and nothing is stored", async () => {
    const runId = "run_e2e_models_refused";
    const r = await api.call("POST", `/v1/workflows/${SEED_WORKFLOW}/runs`, { body: { input: INPUT, runId } });
    expect(r.status, r.text).toBe(409);
    expect(r.json.error?.code).toBe("model_unavailable");
    expect(r.json.error?.message).toContain("OPENAI_API_KEY");
    expect(r.json.error?.message).not.toContain("ANTHROPIC_API_KEY");
    expect((await api.call("GET", `/v1/runs/${runId}`)).status).toBe(404);
    const listed = await api.call("GET", "/v1/runs?limit=100");
    expect((listed.json.runs as { runId: string }[]).some((x) => x.runId === runId)).toBe(false);
  });
});
