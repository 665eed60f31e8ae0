/**
 * The inspector's restart, fork and compare actions in a real headless Chromium against a real
 * `wrangler dev`: each behind a confirmation (dismissed: nothing starts), hidden for a token
 * without `runs:write`, and the compare page linked from the new run, drawing both DAGs with the
 * reused and changed steps marked.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { screenshot, signIn } from "../inspector/browser.ts";
import { INPUT, runOf, SEED_WORKFLOW } from "./support/api.ts";
import { withInspector } from "./support/inspector.ts";

let sourceId: string;

const ui = withInspector(async ({ api }) => {
  const r = await api.call("POST", "/v1/lwir/runs?wait=30", { body: { lwir: await threeSteps(), input: INPUT } });
  expect(r.status, r.text).toBe(200);
  sourceId = runOf(r).runId;
}, 180_000);

/** Three steps over the seed workflow's schemas: extract and classify read the input, report reads both. */
async function threeSteps(): Promise<Record<string, unknown>> {
  const seed = runOf(await ui.api.call("POST", `/v1/workflows/${SEED_WORKFLOW}/runs?wait=30`, { body: { input: INPUT } }));
  const base = (await ui.api.call("GET", `/v1/versions/${seed.versionId}`)).json.version as {
    lwir: Record<string, unknown> & { output: { schema: unknown } };
  };
  const text = { mode: "object", schema: { type: "object", required: ["text"], properties: { text: { type: "string" } } } };
  const slot = "gpt-4o-mini";
  return {
    ...base.lwir,
    permissions: { models: [slot], tools: [], secrets: [], network: [] },
    steps: [
      { id: "extract", uses: "ai.generate", needs: [], with: { model: slot, prompt: "Facts in: {{ input.transcript }}" }, output: text },
      { id: "classify", uses: "ai.generate", needs: [], with: { model: slot, prompt: "Queue for {{ input.ticketId }}?" }, output: text },
      {
        id: "report",
        uses: "ai.generate",
        needs: ["extract", "classify"],
        with: { model: slot, prompt: "Summarize: {{ steps.extract.output.text }} / {{ steps.classify.output.text }}" },
        output: { mode: "object", schema: base.lwir.output.schema },
      },
    ],
  };
}

async function links(): Promise<{ restarts?: string[]; forks?: string[] }> {
  return (await ui.api.call("GET", `/v1/runs/${sourceId}`)).json.run as { restarts?: string[]; forks?: string[] };
}

/** The page of the new run the action opened, once its compare link is there. */
async function followToNewRun(page: Page): Promise<string> {
  await page.waitForURL((url) => url.pathname.startsWith("/runs/") && !url.pathname.endsWith(sourceId));
  const runId = decodeURIComponent(new URL(page.url()).pathname.split("/")[2] as string);
  await page.waitForSelector("#compare-link");
  return runId;
}

describe("inspector: restart, fork, compare", () => {
  it("restart from a step: a dismissed confirmation starts nothing; accepted, it opens the new run, whose compare page marks the reused step", async () => {
    const page = await ui.context.newPage();
    await page.goto(`${ui.dev.url}/runs/${sourceId}`);
    await page.waitForSelector("#restart-form");
    await page.selectOption("#restart-step", "classify");
    page.once("dialog", (d) => void d.dismiss());
    await page.click("#restart-form button[type=submit]");
    await page.waitForTimeout(300);
    expect((await links()).restarts).toBeUndefined();
    page.once("dialog", (d) => void d.accept());
    await page.click("#restart-form button[type=submit]");
    const restartId = await followToNewRun(page);
    expect((await links()).restarts).toEqual([restartId]);
    await Promise.all([page.waitForURL(/\/compare\//), page.click("#compare-link")]);
    await page.waitForSelector("#compare-table tbody tr");
    await expect.poll(() => page.locator('#dag-b g.node[data-compare="reused"]').count()).toBe(1);
    expect(await page.locator('#dag-b g.node[data-step="extract"]').getAttribute("data-compare")).toBe("reused");
    expect(await page.locator("#compare-table tbody tr").count()).toBe(3);
    await screenshot(page, "compare-restart");
    await page.close();
  }, 90_000);

  it("fork with a prompt change: the other two steps are reused, the compare page says so", async () => {
    const page = await ui.context.newPage();
    await page.goto(`${ui.dev.url}/runs/${sourceId}`);
    await page.waitForSelector("#fork-form");
    await page.selectOption("#fork-step", "report");
    await page.fill("#fork-prompt", "Only the severity: {{ steps.extract.output.text }}");
    page.once("dialog", (d) => void d.accept());
    await page.click("#fork-form button[type=submit]");
    const forkId = await followToNewRun(page);
    expect((await links()).forks).toEqual([forkId]);
    await Promise.all([page.waitForURL(/\/compare\//), page.click("#compare-link")]);
    await expect.poll(() => page.locator('#dag-b g.node[data-compare="reused"]').count()).toBe(2);
    expect(await page.locator('#dag-b g.node[data-step="report"]').getAttribute("data-compare")).not.toBe("reused");
    expect(await page.locator('#dag-b g.node[data-step="extract"] text.state').textContent()).toBe("reused");
    await screenshot(page, "compare-fork");
    await page.close();
  }, 90_000);

  it("hides the actions from a token without runs:write", async () => {
    const created = await ui.api.call("POST", "/v1/tokens", { token: ui.dev.adminToken, body: { tenant: "dev", scopes: ["runs:read"] } });
    expect(created.status, created.text).toBe(201);
    const readOnly = await ui.browser.newContext();
    const page = await readOnly.newPage();
    await signIn(page, ui.dev.url, created.json.token as string);
    await page.goto(`${ui.dev.url}/runs/${sourceId}`);
    await page.waitForSelector("#run-status[data-status=completed]");
    await page.waitForTimeout(500);
    expect(await page.locator("#restart-form").count()).toBe(0);
    expect(await page.locator("#fork-form").count()).toBe(0);
    await readOnly.close();
  }, 60_000);
});
