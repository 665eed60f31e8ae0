/**
 * Standard Webhooks deliveries against a real `wrangler dev`: signed with the `standardwebhooks`
 * package as a sender would, no bearer token. Webhook runs belong to tenant `dev`. The main Worker
 * is local development (the examples' own secrets unset, so the shared LITTLE_WEBHOOK_SECRET signs);
 * a second one is deployed (LITTLE_ENV unset) with `support.summarize-ticket`'s own secret.
 */
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Answer, client, expectApiError, INPUT, runOf, SEED_WORKFLOW } from "./support/api.ts";
import { startWranglerDev, type WranglerDev } from "./support/wrangler-dev.ts";

let dev: WranglerDev;
let api: ReturnType<typeof client>;
const HOOK = `/v1/hooks/${SEED_WORKFLOW}`;
const body = JSON.stringify(INPUT);

beforeAll(async () => {
  dev = await startWranglerDev();
  api = client(dev.url, dev.devToken);
});
afterAll(async () => {
  await dev?.dispose();
});

/** The three Standard Webhooks headers for a delivery, signed with `secret` (default: the Worker's). */
function signed(id: string, payload: string, options: { at?: Date; secret?: string } = {}): Record<string, string> {
  const at = options.at ?? new Date();
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(options.secret ?? dev.webhookSecret).sign(id, at, payload),
  };
}

const deliver = (headers: Record<string, string>, payload = body): Promise<Answer> =>
  api.call("POST", HOOK, { token: null, raw: payload, headers });
const msgId = (name: string) => `msg_${name}_${randomBytes(6).toString("hex")}`;

describe("webhooks (Standard Webhooks)", () => {
  it("starts a run from a validly signed delivery (202), which completes for tenant dev", async () => {
    const r = await deliver(signed(msgId("valid"), body));
    expect(r.status, r.text).toBe(202);
    const run = runOf(r);
    expect(run.runId).toMatch(/^run_wh_/);
    const { run: ended } = await api.pollUntilEnded(run.runId);
    expect(ended.status).toBe("completed");
    expect(ended.output).toEqual({ summary: "offline:summary", severity: expect.any(String) });
    const listed = await api.call("GET", "/v1/runs?limit=200");
    expect((listed.json.runs as { runId: string; triggerKind: string }[]).find((x) => x.runId === run.runId)).toMatchObject({
      triggerKind: "webhook",
    });
  });

  it("refuses a bad signature with 401 webhook_signature_invalid, and starts nothing", async () => {
    const headers = signed(msgId("bad"), body, { secret: `whsec_${randomBytes(24).toString("base64")}` });
    expectApiError(await deliver(headers), 401, "webhook_signature_invalid");
    // The body changed after signing.
    expectApiError(await deliver(signed(msgId("tamper"), body), `${body} `), 401, "webhook_signature_invalid");
    // A well-formed but wrong v1 signature.
    expectApiError(
      await deliver({ ...signed(msgId("zero"), body), "webhook-signature": `v1,${Buffer.alloc(32).toString("base64")}` }),
      401,
      "webhook_signature_invalid",
    );
  });

  it.each([
    ["expired (6 minutes old)", -6 * 60_000],
    ["in the future (6 minutes ahead)", 6 * 60_000],
  ])("refuses a timestamp %s with 401 webhook_timestamp_invalid", async (_name, offsetMs) => {
    const r = await deliver(signed(msgId("time"), body, { at: new Date(Date.now() + offsetMs) }));
    expectApiError(r, 401, "webhook_timestamp_invalid");
  });

  it("refuses a delivery with missing headers with 400 webhook_headers_missing", async () => {
    const full = signed(msgId("missing"), body);
    for (const drop of ["webhook-id", "webhook-timestamp", "webhook-signature"]) {
      const headers = Object.fromEntries(Object.entries(full).filter(([name]) => name !== drop));
      const r = await deliver(headers);
      expectApiError(r, 400, "webhook_headers_missing");
      expect(r.json.error?.message).toContain(drop);
    }
    expectApiError(await deliver({}), 400, "webhook_headers_missing");
  });

  it("accepts rotated keys: an old key's signature and the right one, space-separated (202)", async () => {
    const oldSecret = `whsec_${randomBytes(24).toString("base64")}`;
    const id = msgId("rotated");
    const at = new Date();
    const headers = signed(id, body, { at });
    headers["webhook-signature"] = `${signed(id, body, { at, secret: oldSecret })["webhook-signature"]} ${headers["webhook-signature"]}`;
    const r = await deliver(headers);
    expect(r.status, r.text).toBe(202);
    expect((await api.pollUntilEnded(runOf(r).runId)).run.status).toBe("completed");
    // Only the old key's signature: refused.
    expectApiError(await deliver(signed(msgId("only-old"), body, { secret: oldSecret })), 401, "webhook_signature_invalid");
  });

  it("turns one delivery sent 20 times concurrently into exactly one run", async () => {
    const headers = signed(msgId("storm"), body);
    const answers = await Promise.all(Array.from({ length: 20 }, () => deliver(headers)));
    for (const a of answers) expect([200, 202], a.text).toContain(a.status);
    expect(answers.filter((a) => a.status === 202)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(19);
    const ids = new Set(answers.map((a) => runOf(a).runId));
    expect(ids.size).toBe(1);
    const [runId] = [...ids] as [string];
    const { run } = await api.pollUntilEnded(runId);
    expect(run.status).toBe("completed");
    // The run index of tenant dev holds that run once; its log holds one request.
    const listed = await api.call("GET", "/v1/runs?limit=200");
    expect(listed.status).toBe(200);
    expect((listed.json.runs as { runId: string }[]).filter((x) => x.runId === runId)).toHaveLength(1);
    const events = await api.events(runId);
    expect(events.filter((e) => e.type === "RunRequested")).toHaveLength(1);
    expect(events.filter((e) => e.type === "RunCompleted")).toHaveLength(1);
  });
});

describe("webhooks are bound to their target (issue 15)", () => {
  it("a delivery replayed to another workflow's section run is 409 webhook_replayed; a workflow without webhooks is 404", async () => {
    const section = await api.call("POST", "/v1/workflows/support.triage-inbox/runs?wait=30", {
      body: { input: { from: "a@example.com", subject: "Hi", body: "Hello" } },
    });
    expect(section.status, section.text).toBe(202);
    const sectionRun = runOf(section).runId;
    const headers = signed(msgId("replay"), body);
    const first = await deliver(headers);
    expect(first.status, first.text).toBe(202);
    const replayed = await api.call("POST", `/v1/hooks/support.triage-inbox/runs/${sectionRun}`, { token: null, raw: body, headers });
    expectApiError(replayed, 409, "webhook_replayed");
    const other = await api.call("POST", "/v1/hooks/billing.refund", { token: null, raw: body, headers });
    expectApiError(other, 404, "webhook_not_configured");
    // The section queued nothing from the replay: its log has no occurrence for that webhook-id.
    const events = await api.events(sectionRun);
    expect(
      events.filter((e) => e.type === "OccurrenceQueued" && JSON.stringify(e.payload).includes(headers["webhook-id"] as string)),
    ).toEqual([]);
    await api.call("POST", `/v1/runs/${sectionRun}/cancel`, { body: { reason: "done" } });
  });

  describe("a deployed Worker (LITTLE_ENV=production)", () => {
    let deployed: WranglerDev;
    let deployedApi: ReturnType<typeof client>;
    const ownSecret = `whsec_${randomBytes(24).toString("base64")}`;
    beforeAll(async () => {
      deployed = await startWranglerDev({ vars: { LITTLE_ENV: "production", SUMMARIZE_TICKET_WEBHOOK_SECRET: ownSecret } });
      deployedApi = client(deployed.url, deployed.devToken);
    });
    afterAll(async () => {
      await deployed?.dispose();
    });

    it("accepts only the workflow's own secret; a workflow whose secret is unset takes no webhooks", async () => {
      const own = await deployedApi.call("POST", HOOK, {
        token: null,
        raw: body,
        headers: signed(msgId("own"), body, { secret: ownSecret }),
      });
      expect(own.status, own.text).toBe(202);
      expect((await deployedApi.pollUntilEnded(runOf(own).runId)).run.status).toBe("completed");
      const shared = await deployedApi.call("POST", HOOK, {
        token: null,
        raw: body,
        headers: signed(msgId("shared"), body, { secret: deployed.webhookSecret }),
      });
      expectApiError(shared, 401, "webhook_signature_invalid");
      const unset = await deployedApi.call("POST", "/v1/hooks/support.triage-inbox/runs/run_x", {
        token: null,
        raw: body,
        headers: signed(msgId("unset"), body, { secret: deployed.webhookSecret }),
      });
      expectApiError(unset, 404, "webhook_not_configured");
      expect(unset.json.error?.message).toContain("TRIAGE_INBOX_WEBHOOK_SECRET");
    });
  });
});
