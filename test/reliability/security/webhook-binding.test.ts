import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../../src/adapters/models/env-model-resolver.ts";
import { catalogOf } from "../../../src/engine/run-environment.ts";
import { billingRefund } from "../../../src/examples/billing-refund.ts";
import { summarizeTicket, summarizeTicketDefinition } from "../../../src/examples/support-summarize-ticket.ts";
import { defineWorkflow } from "../../../src/sdk/define-workflow.ts";
import { overrideWiring } from "../../../src/wiring.ts";
import { sectionLwir, sectionWorkflow } from "../../support/section-workflow.ts";
import { api } from "./support/api-call.ts";
import { deliver, nowSeconds, signDelivery } from "./support/webhook-delivery.ts";
import { deployedEnv, fetchWithEnv, randomBase64 } from "./support/worker-env.ts";

// Issue 15, finding 1: one signed delivery started runs on every workflow. The same webhook-id,
// timestamp and signature POSTed to three workflows' URLs answered 202 three times; any workflow
// accepted the shared LITTLE_WEBHOOK_SECRET; the body was parsed before the signature was checked.
// Now: a workflow takes webhooks only when it declares `webhook: { secret }`; a webhook-id is
// accepted once per secret, at the URL it first reached (409 `webhook_replayed` elsewhere, nothing
// stored); a deployed Worker never falls back to the shared secret; the signature is checked on the
// raw bytes, read up to the body limit, before anything parses them.

const section = sectionWorkflow("sec.hooks", "continue");
const INPUT = { ticketId: "T-15", transcript: "Replay me everywhere." };
const BODY = JSON.stringify(INPUT);
const SECTION_BODY = JSON.stringify({ text: "hello", fail: false });

beforeEach(() =>
  overrideWiring({
    models: new EnvModelResolver({ mode: "offline", secrets: {} }),
    workflows: catalogOf([section, { definition: summarizeTicket, tools: {} }, { definition: billingRefund, tools: {} }]),
  }),
);
afterEach(() => overrideWiring({}));

async function startSection(): Promise<string> {
  const r = await api("POST", "/v1/lwir/runs?wait=20", {
    body: JSON.stringify({ lwir: await sectionLwir(section), input: { text: "first", fail: false } }),
  });
  expect(r.status, r.text).toBe(202);
  return (r.json.run as { runId: string }).runId;
}

async function count(sql: string, ...binds: unknown[]): Promise<number> {
  return (
    (
      await env.DB.prepare(sql)
        .bind(...binds)
        .first<{ n: number }>()
    )?.n ?? 0
  );
}

const msgId = (tag: string) => `msg_${tag}_${crypto.randomUUID().slice(0, 8)}`;

describe("a signed delivery is bound to the URL it first reached", () => {
  it("replayed to another workflow's URL, to a section run, and to a workflow without webhooks: one run, the rest refused", async () => {
    const sectionRun = await startSection();
    const id = msgId("replay");
    // One body both targets' inputs accept, signed once.
    const body = JSON.stringify({ ...INPUT, text: "hello", fail: false });
    const headers = signDelivery(id, body, nowSeconds());
    const first = await deliver(body, headers, "/v1/hooks/support.summarize-ticket");
    expect(first.status, first.text).toBe(202);
    const again = await deliver(body, headers, "/v1/hooks/support.summarize-ticket");
    expect(again.status).toBe(200);
    expect(again.runId).toBe(first.runId);

    const toSection = await deliver(body, headers, `/v1/hooks/sec.hooks/runs/${sectionRun}`);
    expect([toSection.status, toSection.code]).toEqual([409, "webhook_replayed"]);
    const toOther = await deliver(body, headers, "/v1/hooks/billing.refund");
    expect([toOther.status, toOther.code]).toEqual([404, "webhook_not_configured"]);

    // One delivery row, one webhook run, no occurrence queued by the replay.
    expect(await count("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE webhook_id = ?", id)).toBe(1);
    expect(await count("SELECT COUNT(*) AS n FROM runs WHERE trigger_kind = 'webhook' AND run_id = ?", first.runId)).toBe(1);
    const events = await api("GET", `/v1/runs/${sectionRun}/events?type=OccurrenceQueued&limit=1000`);
    expect((events.json.events as { payload: { trigger: { id?: string } } }[]).filter((e) => e.payload.trigger.id === id)).toEqual([]);
  });

  it("the other way round: first to a section run, then replayed to start a run", async () => {
    const sectionRun = await startSection();
    const webhookRuns = await count("SELECT COUNT(*) AS n FROM runs WHERE trigger_kind = 'webhook'");
    const id = msgId("reverse");
    const headers = signDelivery(id, SECTION_BODY, nowSeconds());
    const first = await deliver(SECTION_BODY, headers, `/v1/hooks/sec.hooks/runs/${sectionRun}`);
    expect(first.status, first.text).toBe(202);
    const otherRun = await startSection();
    const toOtherRun = await deliver(SECTION_BODY, headers, `/v1/hooks/sec.hooks/runs/${otherRun}`);
    expect([toOtherRun.status, toOtherRun.code]).toEqual([409, "webhook_replayed"]);
    const toStart = await deliver(SECTION_BODY, headers, "/v1/hooks/support.summarize-ticket");
    expect([toStart.status, toStart.code]).toEqual([409, "webhook_replayed"]);
    expect(await count("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE webhook_id = ?", id)).toBe(1);
    expect(await count("SELECT COUNT(*) AS n FROM runs WHERE trigger_kind = 'webhook'")).toBe(webhookRuns);
  });

  it("30 concurrent deliveries of one id spread over two URLs: one target wins, the other is refused every time", async () => {
    const sectionRun = await startSection();
    const id = msgId("race");
    const body = JSON.stringify({ ...INPUT, text: "hello", fail: false });
    const headers = signDelivery(id, body, nowSeconds());
    const paths = ["/v1/hooks/support.summarize-ticket", `/v1/hooks/sec.hooks/runs/${sectionRun}`];
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => deliver(body, headers, paths[i % 2] as string)));
    const accepted = answers.filter((a) => a.status < 300);
    const refused = answers.filter((a) => a.status === 409 && a.code === "webhook_replayed");
    expect(accepted.length + refused.length).toBe(30);
    expect(refused.length).toBe(15);
    expect(await count("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE webhook_id = ?", id)).toBe(1);
  });

  it("a refused start leaves no claim: the id stays free for its own URL", async () => {
    const id = msgId("refused");
    const bad = JSON.stringify({ ticketId: 42 });
    const r = await deliver(bad, signDelivery(id, bad, nowSeconds()), "/v1/hooks/support.summarize-ticket");
    expect([r.status, r.code]).toEqual([422, "input_schema_error"]);
    expect(await count("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE webhook_id = ?", id)).toBe(0);
  });
});

describe("the signature is checked on the raw bytes before anything parses them", () => {
  it("a body that is not JSON with a wrong signature is 401, not a parse error; signed correctly it is 400 invalid_json", async () => {
    const junk = '{"ticketId": "T", oops';
    const wrong = signDelivery(msgId("junk"), junk, nowSeconds(), `whsec_${randomBase64(24)}`);
    const r = await deliver(junk, wrong, "/v1/hooks/support.summarize-ticket");
    expect([r.status, r.code]).toEqual([401, "webhook_signature_invalid"]);
    const right = await deliver(junk, signDelivery(msgId("junk2"), junk, nowSeconds()), "/v1/hooks/support.summarize-ticket");
    expect([right.status, right.code]).toEqual([400, "invalid_json"]);
  });

  it("bytes are verified as sent: a BOM, odd whitespace and key order verify; one changed byte or invalid UTF-8 does not", async () => {
    const odd = `\uFEFF{ "transcript" :"x",\n\t"ticketId":"T-1" }`;
    const bom = await deliver(odd, signDelivery(msgId("bom"), odd, nowSeconds()), "/v1/hooks/support.summarize-ticket");
    // Signed correctly; a BOM is not JSON to JSON.parse, so the payload is refused after verification.
    expect([bom.status, bom.code]).toEqual([400, "invalid_json"]);
    const spaced = odd.slice(1);
    const ok = await deliver(spaced, signDelivery(msgId("spaced"), spaced, nowSeconds()), "/v1/hooks/support.summarize-ticket");
    expect(ok.status, ok.text).toBe(202);
    const flipped = await deliver(
      spaced.replace("T-1", "T-2"),
      signDelivery(msgId("flip"), spaced, nowSeconds()),
      "/v1/hooks/support.summarize-ticket",
    );
    expect([flipped.status, flipped.code]).toEqual([401, "webhook_signature_invalid"]);
    // 0xff is not UTF-8: a lenient decode would verify U+FFFD, which the sender never signed.
    const invalid = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]);
    const signedAsReplaced = signDelivery(msgId("utf8"), new TextDecoder().decode(invalid), nowSeconds());
    const bad = await deliver(invalid, signedAsReplaced, "/v1/hooks/support.summarize-ticket");
    expect([bad.status, bad.code]).toEqual([400, "webhook_body_invalid_encoding"]);
  });

  it("a body streamed without a length is read only up to the limit: 413, and the rest is never pulled", async () => {
    const chunk = new Uint8Array(256 * 1024).fill(0x61);
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += chunk.byteLength;
        if (pulled > 64 * 1024 * 1024) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const r = await deliver(endless as never, signDelivery(msgId("stream"), "x", nowSeconds()), "/v1/hooks/support.summarize-ticket");
    expect([r.status, r.code]).toEqual([413, "payload_too_large"]);
    // 4 MiB and a little: the reader stops at the first chunk past the limit.
    expect(pulled).toBeLessThan(8 * 1024 * 1024);
  });
});

describe("a deployed Worker: each webhook workflow needs its own secret", () => {
  const sign = (id: string, body: string, secret: string) => signDelivery(id, body, nowSeconds(), secret);
  const post = (vars: Record<string, unknown>, path: string, body: string, headers: Record<string, string>) =>
    fetchWithEnv(vars, "POST", path, { body, headers: { "content-type": "application/json", ...headers } });

  it("with its secret unset, the shared LITTLE_WEBHOOK_SECRET is refused (404 webhook_not_configured naming it)", async () => {
    const vars = deployedEnv();
    const id = msgId("shared");
    const r = await post(vars, "/v1/hooks/support.summarize-ticket", BODY, sign(id, BODY, vars.LITTLE_WEBHOOK_SECRET as string));
    expect([r.status, r.code]).toEqual([404, "webhook_not_configured"]);
    expect(r.message).toContain("SUMMARIZE_TICKET_WEBHOOK_SECRET");
    expect(await count("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE webhook_id = ?", id)).toBe(0);
  });

  it("with its own secret set, only that secret verifies", async () => {
    const own = `whsec_${randomBase64(24)}`;
    const vars = deployedEnv({ SUMMARIZE_TICKET_WEBHOOK_SECRET: own });
    const shared = await post(
      vars,
      "/v1/hooks/support.summarize-ticket",
      BODY,
      sign(msgId("s"), BODY, vars.LITTLE_WEBHOOK_SECRET as string),
    );
    expect([shared.status, shared.code]).toEqual([401, "webhook_signature_invalid"]);
    const r = await post(vars, "/v1/hooks/support.summarize-ticket", BODY, sign(msgId("own"), BODY, own));
    expect(r.status, r.text).toBe(202);
  });

  it("its own secret set to a well-known example value: 503 insecure_configuration naming the variable, nothing stored", async () => {
    const example = "whsec_ZGV2LXdlYmhvb2stc2VjcmV0LWZvci1saXR0bGU=";
    const vars = deployedEnv({ SUMMARIZE_TICKET_WEBHOOK_SECRET: example });
    const id = msgId("ex");
    const r = await post(vars, "/v1/hooks/support.summarize-ticket", BODY, sign(id, BODY, example));
    expect([r.status, r.code]).toEqual([503, "insecure_configuration"]);
    expect(r.message).toContain("SUMMARIZE_TICKET_WEBHOOK_SECRET");
    expect(await count("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE webhook_id = ?", id)).toBe(0);
  });
});

describe("declaring webhooks", () => {
  it("a webhook block without a Worker secret name is refused when the workflow is defined", () => {
    for (const webhook of [{}, { secret: "" }, { secret: "lower_case" }, { secret: 42 }, { secret: "HAS SPACE" }]) {
      let findings: { code: string; path: string }[] = [];
      try {
        defineWorkflow({ ...summarizeTicketDefinition, webhook } as never);
      } catch (error) {
        findings = (error as { findings?: { code: string; path: string }[] }).findings ?? [];
      }
      expect([JSON.stringify(webhook), findings.map((f) => `${f.path} ${f.code}`)]).toEqual([
        JSON.stringify(webhook),
        ["$.webhook.secret definition.invalid_webhook"],
      ]);
    }
  });
});
