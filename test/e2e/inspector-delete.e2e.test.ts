import { describe, expect, it } from "vitest";
import { screenshot, signIn } from "../inspector/browser.ts";
import { client, INPUT, runOf, SEED_WORKFLOW } from "./support/api.ts";
import { withInspector } from "./support/inspector.ts";

const ui = withInspector();

describe("deleting a run from the inspector", () => {
  it("hides the button without runs:delete, asks before deleting, then the page answers 410", async () => {
    const { api, browser, dev } = ui;
    const started = await api.call("POST", `/v1/workflows/${SEED_WORKFLOW}/runs?wait=30`, { body: { input: INPUT } });
    expect(started.status, started.text).toBe(200);
    const { runId } = runOf(started);

    // A reader of the dev tenant: the page shows the run but no Delete button.
    const minted = await client(dev.url, dev.adminToken).call("POST", "/v1/tokens", { body: { tenant: "dev", scopes: ["runs:read"] } });
    expect(minted.status, minted.text).toBe(201);
    const reader = await (await browser.newContext()).newPage();
    await signIn(reader, dev.url, minted.json.token as string, `/runs/${runId}`);
    await reader.locator("#run-status").waitFor({ state: "visible", timeout: 15_000 });
    expect(await reader.locator("#delete-run").count()).toBe(0);

    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await signIn(page, dev.url, dev.devToken, `/runs/${runId}`);
    await page.locator("#run-status").waitFor({ state: "visible", timeout: 15_000 });
    await page.click("#delete-run");
    await page.locator("#delete-run-dialog").waitFor({ state: "visible" });
    expect(await page.locator("#delete-run-dialog").textContent()).toContain("cannot be undone");
    await screenshot(page, "delete-run-confirm", false);
    // Declined: nothing happens.
    await page.click("#delete-run-keep");
    expect(await page.locator("#delete-run-dialog").count()).toBe(0);
    expect((await api.call("GET", `/v1/runs/${runId}`)).status).toBe(200);

    await page.click("#delete-run");
    const [reloaded] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/runs/${runId}`) && r.request().method() === "GET"),
      page.click("#delete-run-confirm"),
    ]);
    expect(reloaded.status()).toBe(410);
    await page.locator("h1", { hasText: "Run deleted" }).waitFor({ state: "visible" });
    const gone = await api.call("GET", `/v1/runs/${runId}`);
    expect({ status: gone.status, code: (gone.json.error as { code?: string } | undefined)?.code }).toEqual({
      status: 410,
      code: "run_deleted",
    });
  });
});
