/**
 * The inspector flags a run the offline model answered (LITTLE_MODELS=auto without a key, or
 * offline): a real headless Chromium against a real `wrangler dev` (offline models) shows the
 * "offline model" badge in the run summary, listing the models, and GET /v1/runs/:id agrees.
 * The same browser runs the typed client (src/client/, bundled for browsers) against the Worker.
 */
import { resolve } from "node:path";
import { build } from "esbuild";
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

describe("the client in a browser", () => {
  it("starts a run, streams its events and names an API error, with only the browser's fetch", async () => {
    const bundle = await build({
      entryPoints: [resolve(import.meta.dirname, "../../src/client/index.ts")],
      bundle: true,
      platform: "browser",
      format: "iife",
      globalName: "Little",
      write: false,
    });
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${dev.url}/v1/health`);
    await page.addScriptTag({ content: bundle.outputFiles[0]?.text ?? "" });
    const result = await page.evaluate(
      async ({ token, workflow, input }) => {
        const win = globalThis as unknown as { Little: typeof import("../../src/client/index.ts"); location: { origin: string } };
        const { createClient, LittleClientError } = win.Little;
        const client = createClient({ baseUrl: win.location.origin, token });
        const { run } = await client.startRun(workflow, input, { wait: 30 });
        const types: string[] = [];
        for await (const event of client.events(run.runId)) types.push(event.type);
        let code = "";
        try {
          await client.getRun("run_not_there");
        } catch (error) {
          code = error instanceof LittleClientError ? `${error.code} ${error.status}` : String(error);
        }
        return { status: run.status, first: types[0], last: types.at(-1), count: types.length, code };
      },
      { token: dev.devToken, workflow: SEED_WORKFLOW, input: INPUT },
    );
    expect(result).toMatchObject({ status: "completed", first: "RunRequested", last: "RunCompleted", code: "run_not_found 404" });
    expect(result.count).toBeGreaterThan(2);
  });
});
