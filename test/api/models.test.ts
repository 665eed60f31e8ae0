import { env, exports } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import { runClient } from "../../src/adapters/cloudflare/run-client.ts";
import { D1RunIndex } from "../../src/adapters/d1/d1-run-index.ts";
import { digestJson, digestPrefix } from "../../src/json/digest.ts";
import { overrideWiring } from "../../src/wiring.ts";

// Model configuration through the real Worker: the wiring reads `modelEnv` exactly as it reads the
// Worker's vars, so these tests set LITTLE_MODELS, LITTLE_MODEL_<SLOT> and keys per test.
const DEV = "test-dev-token";
/** The shared webhook secret (LITTLE_WEBHOOK_SECRET), which stands in for a workflow's own in development. */
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const INPUT = { ticketId: "T-7", transcript: "Export to CSV fails with a timeout." };
const WORKFLOW = "support.summarize-ticket";

afterEach(() => overrideWiring({}));

type Json = Record<string, unknown> & { error?: { code: string; message: string; findings?: { code: string; message: string }[] } };

async function call(
  method: string,
  path: string,
  options: { body?: unknown; raw?: string; headers?: Record<string, string>; token?: string | null } = {},
) {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  const token = options.token === undefined ? DEV : options.token;
  if (token) headers.authorization = `Bearer ${token}`;
  const body = options.raw ?? (options.body !== undefined ? JSON.stringify(options.body) : undefined);
  if (body !== undefined) headers["content-type"] ??= "application/json";
  const res = await exports.default.fetch(`http://little.test${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  return { status: res.status, json: (text.startsWith("{") ? JSON.parse(text) : {}) as Json };
}

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
type Workflow = { id: string; definitionHash: string; models: Slot[]; modelSlots: { id: string; providerId: string; modelId: string }[] };

async function workflow(id = WORKFLOW): Promise<Workflow> {
  const r = await call("GET", "/v1/workflows");
  expect(r.status).toBe(200);
  return (r.json.workflows as Workflow[]).find((w) => w.id === id) as Workflow;
}

/** Nothing of the run was stored: no run index row, no event in its run object. */
async function expectNothingStored(runId: string) {
  expect(await new D1RunIndex(env.DB).get("dev", runId)).toBeNull();
  expect((await runClient(env.RUNS, "dev", runId).status()).eventCount).toBe(0);
  expect((await call("GET", `/v1/runs/${runId}`)).status).toBe(404);
}

describe("live mode refuses a start whose model has no key (model_unavailable), storing nothing", () => {
  it("POST /v1/workflows/:id/runs answers 409 naming OPENAI_API_KEY", async () => {
    overrideWiring({ modelEnv: { LITTLE_MODELS: "live" } });
    const r = await call("POST", `/v1/workflows/${WORKFLOW}/runs`, { body: { input: INPUT, runId: "run_models_nokey" } });
    expect(r.status).toBe(409);
    expect(r.json.error?.code).toBe("model_unavailable");
    expect(r.json.error?.message).toContain("OPENAI_API_KEY");
    expect(r.json.error?.findings?.map((f) => f.message)).toEqual([
      expect.stringContaining("planner gpt-5"),
      expect.stringContaining("slot gpt-5"),
      expect.stringContaining("slot gpt-4o-mini"),
    ]);
    await expectNothingStored("run_models_nokey");
  });

  it("names the key of the overridden provider, not the authored one", async () => {
    overrideWiring({
      modelEnv: { LITTLE_MODELS: "live", OPENAI_API_KEY: "sk-test", LITTLE_MODEL_GPT_4O_MINI: "anthropic:claude-haiku-4-5" },
    });
    const r = await call("POST", `/v1/workflows/${WORKFLOW}/runs`, { body: { input: INPUT, runId: "run_models_anthropic" } });
    expect(r.status).toBe(409);
    expect(r.json.error?.message).toContain("ANTHROPIC_API_KEY");
    expect(r.json.error?.message).not.toContain("OPENAI_API_KEY");
    await expectNothingStored("run_models_anthropic");
  });

  it("a webhook start is refused the same way, and nothing is stored", async () => {
    overrideWiring({ modelEnv: { LITTLE_MODELS: "live" } });
    const body = JSON.stringify(INPUT);
    const at = new Date();
    const headers = {
      "webhook-id": "msg_models_1",
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": new Webhook(SECRET).sign("msg_models_1", at, body),
    };
    const r = await call("POST", `/v1/hooks/${WORKFLOW}`, { token: null, raw: body, headers });
    expect(r.json.error?.message).toContain("OPENAI_API_KEY");
    expect(r.status).toBe(409);
    expect(r.json.error?.code).toBe("model_unavailable");
    await expectNothingStored(`run_wh_${digestPrefix(digestJson({ workflowId: WORKFLOW, webhookId: "msg_models_1" }), 24)}`);
    // The delivery's claim was released: the webhook-id is not spent.
    const claims = await env.DB.prepare("SELECT count(*) AS n FROM webhook_deliveries WHERE webhook_id = ?")
      .bind("msg_models_1")
      .first<{ n: number }>();
    expect(claims?.n).toBe(0);
  });

  it("with the key set, the same start is accepted", async () => {
    overrideWiring({ modelEnv: { LITTLE_MODELS: "live", OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" } });
    const r = await call("POST", `/v1/workflows/${WORKFLOW}/runs`, { body: { input: INPUT, runId: "run_models_keyed" } });
    expect(r.status).toBe(202);
    await runClient(env.RUNS, "dev", "run_models_keyed").cancel("test over");
  });
});

describe("GET /v1/workflows: each slot's readiness", () => {
  it("live without keys: every slot not ready, naming the secret", async () => {
    overrideWiring({ modelEnv: { LITTLE_MODELS: "live" } });
    const w = await workflow();
    expect(w.models).toEqual([
      {
        id: "gpt-5",
        role: "planner",
        provider: "openai.responses",
        model: "gpt-5",
        source: "definition",
        mode: "live",
        ready: false,
        offline: false,
        missing: ["OPENAI_API_KEY"],
      },
      {
        id: "gpt-5",
        role: "step",
        provider: "openai.responses",
        model: "gpt-5",
        source: "definition",
        mode: "live",
        ready: false,
        offline: false,
        missing: ["OPENAI_API_KEY"],
      },
      {
        id: "gpt-4o-mini",
        role: "step",
        provider: "openai.responses",
        model: "gpt-4o-mini",
        source: "definition",
        mode: "live",
        ready: false,
        offline: false,
        missing: ["OPENAI_API_KEY"],
      },
    ]);
  });

  it("an override shows as source override with its own provider, changes the definition hash, and the run is locked to that hash", async () => {
    overrideWiring({ modelEnv: { LITTLE_MODELS: "offline" } });
    const before = await workflow();
    expect(before.models.every((s) => s.ready && s.offline && s.mode === "offline")).toBe(true);
    overrideWiring({ modelEnv: { LITTLE_MODELS: "offline", LITTLE_MODEL_GPT_4O_MINI: "workers-ai:@cf/meta/llama-3.1-8b-instruct" } });
    const after = await workflow();
    expect(after.definitionHash).not.toBe(before.definitionHash);
    expect(after.modelSlots[1]).toMatchObject({
      id: "gpt-4o-mini",
      providerId: "workersai.chat",
      modelId: "@cf/meta/llama-3.1-8b-instruct",
    });
    expect(after.models[2]).toMatchObject({ id: "gpt-4o-mini", provider: "workersai.chat", source: "override", missing: ["AI"] });
    const r = await call("POST", `/v1/workflows/${WORKFLOW}/runs?wait=20`, { body: { input: INPUT } });
    expect(r.status).toBe(200);
    const runId = (r.json.run as { runId: string }).runId;
    const events = (await call("GET", `/v1/runs/${runId}/events?type=WorkflowVersionRegistered`)).json.events as {
      payload: { definitionHash: string };
    }[];
    expect(events[0]?.payload.definitionHash).toBe(after.definitionHash);
  });

  it("a malformed LITTLE_MODEL_<SLOT> is a 422 model_config_invalid naming the var, never a 500", async () => {
    overrideWiring({ modelEnv: { LITTLE_MODELS: "offline", LITTLE_MODEL_GPT_5: "claude-sonnet" } });
    const listed = await call("GET", "/v1/workflows");
    expect(listed.status).toBe(422);
    expect(listed.json.error).toMatchObject({ code: "model_config_invalid", message: expect.stringContaining("LITTLE_MODEL_GPT_5") });
    const start = await call("POST", `/v1/workflows/${WORKFLOW}/runs`, { body: { input: INPUT, runId: "run_models_badcfg" } });
    expect(start.status).toBe(422);
    expect(start.json.error?.code).toBe("model_config_invalid");
    await expectNothingStored("run_models_badcfg");
  });
});

describe("auto falling back to the offline model is flagged on the run", () => {
  it("GET /v1/runs/:id lists offlineModels when auto had no key", async () => {
    overrideWiring({ modelEnv: { LITTLE_MODELS: "auto" } });
    const w = await workflow();
    expect(w.models.every((s) => s.mode === "auto" && s.ready && s.offline && s.missing?.[0] === "OPENAI_API_KEY")).toBe(true);
    const r = await call("POST", `/v1/workflows/${WORKFLOW}/runs?wait=20`, { body: { input: INPUT } });
    expect(r.status).toBe(200);
    const got = await call("GET", `/v1/runs/${(r.json.run as { runId: string }).runId}`);
    expect((got.json.run as { offlineModels?: string[] }).offlineModels).toEqual(expect.arrayContaining(["openai.responses/gpt-5"]));
  });
});
