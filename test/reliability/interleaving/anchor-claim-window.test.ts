/**
 * Reliability item 12, the window between an anchor's lookup and its claim. A start finds the
 * minted anchor, then claims it by a guarded compare-and-set (`minted → pending`). Another call can
 * land between the two; the run index is wrapped (`overrideWiring({ runs })`) so that call is made
 * exactly there, every time, without timing:
 *
 * - a cancel of the anchor: the claim loses, and the start must answer 409 `run_ended` with no run
 *   object created (no `RunRequested`) and the anchor left `cancelled`;
 * - a second start of the same anchor: the claim loses to that start, and both answer the one run.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../../src/adapters/models/env-model-resolver.ts";
import type { RunIndex } from "../../../src/ports/run-index.ts";
import { overrideWiring } from "../../../src/wiring.ts";
import { call, tenantToken } from "../../api/support/api-call.ts";
import { runStub } from "../../support/drive.ts";

const WF = "support.summarize-ticket";
// The offline model: the start must reach the claim, not stop at a live model without its key.
const OFFLINE = new EnvModelResolver({ mode: "offline", secrets: {} });
const input = { ticketId: "T-window", transcript: "I cannot log in since Monday." };

/** The D1 run index with `between` run once, right before the first `claimAnchor` of `runId`. */
function claimWindow(runId: () => string, between: () => Promise<void>): (index: RunIndex) => RunIndex {
  let fired = false;
  return (index) =>
    new Proxy(index, {
      get(target, key, receiver) {
        if (key !== "claimAnchor") {
          const value = Reflect.get(target, key, receiver);
          return typeof value === "function" ? value.bind(target) : value;
        }
        return async (tenant: string, id: string, at: number) => {
          if (!fired && id === runId()) {
            fired = true;
            await between();
          }
          return target.claimAnchor(tenant, id, at);
        };
      },
    });
}

async function mint(token: string): Promise<string> {
  const minted = await call("POST", `/v1/workflows/${WF}/anchors`, { token });
  expect(minted.status).toBe(201);
  return (minted.json.run as { runId: string }).runId;
}

async function indexStatus(tenant: string, runId: string): Promise<string | undefined> {
  const row = await env.DB.prepare("SELECT status FROM runs WHERE tenant = ? AND run_id = ?")
    .bind(tenant, runId)
    .first<{ status: string }>();
  return row?.status;
}

afterEach(() => overrideWiring({}));

describe("an anchor's lookup-to-claim window (item 12)", () => {
  it("a cancel landing between the lookup and the claim refuses the start: 409 run_ended, no run", async () => {
    const tenant = `ilwin_${crypto.randomUUID().slice(0, 8)}`;
    const token = await tenantToken(tenant);
    let runId = "";
    let cancel: Awaited<ReturnType<typeof call>> | undefined;
    overrideWiring({
      models: OFFLINE,
      runs: claimWindow(
        () => runId,
        async () => {
          cancel = await call("POST", `/v1/runs/${runId}/cancel`, { token });
        },
      ),
    });
    runId = await mint(token);
    const started = await call("POST", `/v1/workflows/${WF}/runs`, { token, body: { runId, input } });
    // The cancel really ran inside the window, and was accepted there.
    expect(cancel?.status, `start answered ${started.status} ${started.text}`).toBe(200);
    expect((cancel?.json.run as { status?: string } | undefined)?.status).toBe("cancelled");
    expect(started.status).toBe(409);
    expect(started.json.error?.code).toBe("run_ended");
    expect((await runStub(runId, tenant).status()).eventCount).toBe(0);
    expect(await indexStatus(tenant, runId)).toBe("cancelled");
    // And it stays refused.
    const again = await call("POST", `/v1/workflows/${WF}/runs`, { token, body: { runId, input } });
    expect([again.status, again.json.error?.code]).toEqual([409, "run_ended"]);
    expect((await runStub(runId, tenant).status()).eventCount).toBe(0);
  }, 30_000);

  it("a second start landing in the window wins the claim; the first start still answers the one run", async () => {
    const tenant = `ilwin_${crypto.randomUUID().slice(0, 8)}`;
    const token = await tenantToken(tenant);
    let runId = "";
    let inner: Awaited<ReturnType<typeof call>> | undefined;
    overrideWiring({
      models: OFFLINE,
      runs: claimWindow(
        () => runId,
        async () => {
          inner = await call("POST", `/v1/workflows/${WF}/runs`, { token, body: { runId, input } });
        },
      ),
    });
    runId = await mint(token);
    const outer = await call("POST", `/v1/workflows/${WF}/runs`, { token, body: { runId, input } });
    // Both are answers of a started run (202 while it runs), never a refusal.
    expect(inner?.status).toBe(202);
    expect(outer.status).toBe(202);
    expect((outer.json.run as { runId: string }).runId).toBe(runId);
    const events = await runStub(runId, tenant).events({ limit: 1_000 });
    expect(events.filter((e) => e.type === "RunRequested")).toHaveLength(1);
    await runStub(runId, tenant).cancel("test over");
  }, 30_000);
});
