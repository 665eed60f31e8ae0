/**
 * Issue 24, holes 3 and 4: client errors are never 5xx. Inputs nested 5,000–50,000 deep used to
 * answer 503 `run_start_unconfirmed` on every attempt and hold a start-quota slot; a truncated
 * multipart login answered 500. Every start route (the workflow route, `POST /v1/lwir/runs` with
 * a deep input and with a deep document, a signed webhook delivery, the RPC binding) and the
 * inspector's routes are fuzzed with nesting depths 1..100,000 and bodies up to the limit: each
 * answer is a 2xx or a 4xx with a named code, and a refused start holds nothing of its tenant's
 * quotas (only runs that exist are in the quota limiters).
 * `npm run torture` sweeps more depths (LITTLE_TORTURE_SEEDS).
 */
import { createMessageBatch } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../../src/adapters/models/env-model-resolver.ts";
import { MAX_BODY_BYTES } from "../../../src/api/body-limit.ts";
import { MAX_BODY_NESTING } from "../../../src/api/nesting-depth.ts";
import { consumeRunMessages } from "../../../src/triggers/queue-consumer.ts";
import { overrideWiring } from "../../../src/wiring.ts";
import { tenantToken } from "../../api/support/api-call.ts";
import { strayQuotaEntries } from "../../support/tenant-quota.ts";
import { Rng, tortureSeeds } from "./support/random.ts";
import { nowSeconds, signDelivery } from "./support/webhook-delivery.ts";

const WORKFLOW = "support.summarize-ticket";
const SAMPLED = [1, 10, 100, 511, 512, 513, 599, 600, 601, 1000, 1024, 1025, 5000, 20000, 100000];

/** The sampled depths, plus (under torture) random ones up to 100,000. */
function depths(): number[] {
  const extra = Math.max(0, tortureSeeds() - 20);
  const rng = new Rng(24);
  return [...SAMPLED, ...Array.from({ length: extra }, () => 1 + Math.floor(rng.next() * 100_000))];
}

/** JSON text of `depth` nested arrays or objects around a small leaf. */
function nested(depth: number, shape: "array" | "object"): string {
  return shape === "array" ? `${"[".repeat(depth)}1${"]".repeat(depth)}` : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}

type Answer = { status: number; code: string | undefined; text: string };

async function post(path: string, body: string, headers: Record<string, string>): Promise<Answer> {
  const res = await exports.default.fetch(`http://little.test${path}`, { method: "POST", headers, body });
  const text = await res.text();
  let code: string | undefined;
  try {
    code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
  } catch {
    code = res.headers.get("x-little-error") ?? undefined;
  }
  return { status: res.status, code, text: text.slice(0, 300) };
}

/** Never a 5xx; a 4xx always names its code. */
function expectClientAnswer(a: Answer, what: string): void {
  expect(a.status, `${what}: ${a.text}`).toBeLessThan(500);
  if (a.status >= 400) expect(a.code, `${what}: ${a.text}`).toMatch(/^[a-z_]+$/);
}

const SUMMARIZE_LWIR = async (input: string) =>
  `{"lwir":{"apiVersion":"x","kind":"y","metadata":{"name":"${WORKFLOW}"},"steps":[]},"input":${input}}`;

let token: string;
let tenant: string;

beforeEach(async () => {
  overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {} }) });
  tenant = `fuzz_${crypto.randomUUID().slice(0, 8)}`;
  token = await tenantToken(tenant);
});
afterEach(() => overrideWiring({}));

describe("start routes under deep nesting: never a 5xx, never a held slot", () => {
  it("the workflow route, the LWIR route (deep input, deep document) and the RPC binding", { timeout: 120_000 }, async () => {
    const json = { "content-type": "application/json", authorization: `Bearer ${token}` };
    const rpc = exports.LittleWorkflowEntrypoint({ props: { tenant } });
    for (const depth of depths()) {
      for (const shape of ["array", "object"] as const) {
        const value = nested(depth, shape);
        const start = await post(`/v1/workflows/${WORKFLOW}/runs`, `{"input":${value}}`, json);
        expectClientAnswer(start, `start ${shape} ${depth}`);
        // Not the workflow's input shape at any depth: refused, and past the canonical limit as too deep.
        expect(start.status, start.text).toBeGreaterThanOrEqual(400);
        if (depth > 512) expect(start.code).toBe("canonical_json_rejected");
        const lwirInput = await post("/v1/lwir/runs", await SUMMARIZE_LWIR(value), json);
        expectClientAnswer(lwirInput, `lwir input ${shape} ${depth}`);
        const lwirDoc = await post("/v1/lwir/runs", `{"lwir":${value},"input":{}}`, json);
        expectClientAnswer(lwirDoc, `lwir document ${shape} ${depth}`);
        if (depth > MAX_BODY_NESTING) expect(lwirDoc.code).toBe("canonical_json_rejected");
      }
      // RPC: the value crosses as a structured clone; a depth the caller's runtime cannot send
      // fails in the caller, never as an unconfirmed start.
      let parsed: unknown;
      try {
        parsed = JSON.parse(nested(depth, "object"));
      } catch {
        continue;
      }
      let error: { code?: string; status?: number } | null = null;
      try {
        await rpc.startRun(WORKFLOW, parsed);
      } catch (e) {
        error = e as { code?: string; status?: number };
      }
      expect(error?.code, `rpc ${depth}`).not.toBe("run_start_unconfirmed");
      if (error?.status !== undefined) expect(error.status, `rpc ${depth}: ${error.code}`).toBeLessThan(500);
    }
    expect(await strayQuotaEntries(tenant)).toEqual([]);
  });

  it("a signed webhook delivery nested at every depth is a 4xx with a named code", { timeout: 120_000 }, async () => {
    for (const depth of depths()) {
      const body = `{"ticketId":"T-deep","transcript":"x","extra":${nested(depth, "object")}}`;
      const id = `msg_deep_${depth}_${crypto.randomUUID()}`;
      const a = await post(`/v1/hooks/${WORKFLOW}`, body, { "content-type": "application/json", ...signDelivery(id, body, nowSeconds()) });
      expectClientAnswer(a, `webhook ${depth}`);
      if (depth > 512) expect(a.code, a.text).toBe("canonical_json_rejected");
    }
  });

  it("bodies up to the limit and just over it: a 2xx, a 4xx with a code, or 413", { timeout: 120_000 }, async () => {
    const json = { "content-type": "application/json", authorization: `Bearer ${token}` };
    for (const size of [MAX_BODY_BYTES - 64, MAX_BODY_BYTES + 1]) {
      // A flat input of the size, and a deep prefix padded to the size.
      const flat = `{"input":{"ticketId":"T-big","transcript":"${"x".repeat(size - 50)}"}}`;
      const deep = `{"input":${nested(50_000, "array")},"pad":"${"y".repeat(Math.max(0, size - 300_000))}"}`;
      for (const [what, body] of [
        ["flat", flat],
        ["deep", deep],
      ] as const) {
        const a = await post(`/v1/workflows/${WORKFLOW}/runs`, body, json);
        expectClientAnswer(a, `${what} ${body.length} bytes`);
        if (body.length > MAX_BODY_BYTES) expect(a.status).toBe(413);
      }
    }
    expect(await strayQuotaEntries(tenant)).toEqual([]);
  });
});

describe("a queue message with a deep input", () => {
  it("is dead-lettered once as canonical_json_rejected, never retried", async () => {
    const letters: unknown[] = [];
    const target = { ...env, LITTLE_DEAD_LETTERS: { send: async (body: unknown) => void letters.push(body) } } as Env;
    // Deeper values cannot be carried in a message at all: the platform's structured clone (here,
    // the test pool's createMessageBatch) overflows on them before any consumer runs.
    for (const depth of [513, 600, 1_000]) {
      const input = { ticketId: "T-deep", transcript: "x", extra: JSON.parse(nested(depth, "object")) };
      const batch = createMessageBatch("little-workflow-runs", [
        { id: `msg-deep-${depth}-${crypto.randomUUID()}`, timestamp: new Date(0), attempts: 1, body: { workflowId: WORKFLOW, input } },
      ]);
      const [outcome] = await consumeRunMessages(batch, target);
      expect(outcome, `depth ${depth}`).toMatchObject({ outcome: "dead_lettered", cause: "canonical_json_rejected" });
    }
    expect(letters).toHaveLength(3);
  });
});

describe("the inspector's routes under malformed bodies: never a 5xx", () => {
  const boundary = "----little-fuzz";
  const form = `--${boundary}\r\nContent-Disposition: form-data; name="token"\r\n\r\nnot-a-token\r\n--${boundary}\r\nContent-Disposition: form-data; name="next"\r\n\r\n/runs\r\n--${boundary}--\r\n`;

  it("POST /login with a truncated multipart body is 400 login_form_invalid; a whole one is read", async () => {
    const cut = await post("/login", form.slice(0, 60), { "content-type": `multipart/form-data; boundary=${boundary}` });
    expect(cut.status, cut.text).toBe(400);
    expect(cut.code).toBe("login_form_invalid");
    const whole = await post("/login", form, { "content-type": `multipart/form-data; boundary=${boundary}` });
    // Read, and the token is refused: the form itself was fine.
    expect(whole.status).toBe(401);
  });

  it("every cut of the multipart form, other content types and deep bodies at every inspector route", { timeout: 120_000 }, async () => {
    const cuts = Array.from({ length: form.length }, (_, i) => form.slice(0, i));
    for (const body of cuts) {
      const a = await post("/login", body, { "content-type": `multipart/form-data; boundary=${boundary}` });
      expect(a.status, `cut at ${body.length}: ${a.text}`).toBeLessThan(500);
    }
    const odd: [string, string][] = [
      ["multipart/form-data", form],
      ["multipart/form-data; boundary=", form],
      ["application/x-www-form-urlencoded", "token=%E0%A4%A&next=%"],
      ["application/json", nested(100_000, "array")],
      ["text/plain", "\u0000\uffff"],
    ];
    for (const [type, body] of odd) {
      for (const path of ["/login", "/logout", "/runs", "/runs/run_x", "/inspector/app.js"]) {
        const a = await post(path, body, { "content-type": type });
        expect(a.status, `${path} ${type}: ${a.text}`).toBeLessThan(500);
      }
    }
  });
});
