/**
 * The inspector flags a run the offline model answered (LITTLE_MODELS=auto without a key, or
 * offline): a real headless Chromium against a real `wrangler dev` (offline models) shows the
 * "offline model" badge in the run summary, listing the models, and GET /v1/runs/:id agrees.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, screenshot, signIn } from "../inspector/browser.ts";
import { client, INPUT, runOf, SEED_WORKFLOW } from "./support/api.ts";
import { startWranglerDev, type WranglerDev } from "./support/wrangler-dev.ts";

let dev: WranglerDev;
let browser: Browser;

beforeAll(async () => {
  [dev, browser] = await Promise.all([startWranglerDev({ vars: { LITTLE_MODELS: "auto" } }), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await dev?.dispose();
});

describe("offline fallback in the inspector", () => {
  it("shows the offline model badge with the models it answered for", async () => {
    const api = client(dev.url, dev.devToken);
    const started = await api.call("POST", `/v1/workflows/${SEED_WORKFLOW}/runs?wait=30`, { body: { input: INPUT } });
    expect(started.status, started.text).toBe(200);
    const run = runOf(started);
    const got = await api.call("GET", `/v1/runs/${run.runId}`);
    const offlineModels = (got.json.run as { offlineModels?: string[] }).offlineModels;
    expect(offlineModels).toEqual(expect.arrayContaining(["openai.responses/gpt-5"]));

    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await signIn(page, dev.url, dev.devToken, `/runs/${run.runId}`);
    const badge = page.locator("#offline-badge");
    await badge.waitFor({ state: "visible", timeout: 15_000 });
    expect(await badge.textContent()).toBe("offline model");
    const summary = (await page.locator("#summary-list").textContent()) ?? "";
    for (const m of offlineModels ?? []) expect(summary).toContain(m);
    await screenshot(page, "offline-model-badge", false);
  });
});
