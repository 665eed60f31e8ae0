/**
 * The run page's actions in a real headless Chromium against a real `wrangler dev`: pause, resume,
 * approve and deny a held tool call, cancel — each behind a confirmation (a refused confirmation
 * changes nothing), each hidden for a token without the scope its route needs.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { screenshot, signIn } from "../inspector/browser.ts";
import { refundLwir, runOf } from "./support/api.ts";
import { withInspector } from "./support/inspector.ts";

const ui = withInspector();

/** A billing.refund run held for a person's approval, with its page open at that point. */
async function heldRun(orderId: string, ctx = ui.context): Promise<{ runId: string; page: Page }> {
  const lwir = await refundLwir(ui.api);
  const held = runOf(await ui.api.call("POST", "/v1/lwir/runs", { body: { lwir, input: { orderId, amountCents: 500, reason: "x" } } }));
  const page = await ctx.newPage();
  await page.goto(`${ui.dev.url}/runs/${held.runId}`);
  await page.waitForSelector("#run-status[data-status=waiting][data-wait-reason=approval]");
  return { runId: held.runId, page };
}

/** Clicks an action and answers its confirmation. */
async function act(page: Page, id: string, accept = true): Promise<string> {
  let question = "";
  page.once("dialog", (dialog) => {
    question = dialog.message();
    void (accept ? dialog.accept() : dialog.dismiss());
  });
  await page.click(`#action-${id}`);
  return question;
}

const statusOf = async (runId: string) => (runOf(await ui.api.call("GET", `/v1/runs/${runId}`)) as { status: string }).status;

describe("inspector actions", () => {
  it("pauses and resumes behind a confirmation, then approves the held call; the run completes", async () => {
    const { runId, page } = await heldRun("o-act-1");
    // A dismissed confirmation does nothing.
    expect(await act(page, "pause", false)).toContain("Pause this run?");
    expect(await statusOf(runId)).toBe("waiting");

    await act(page, "pause");
    await page.waitForSelector("#run-status[data-status=paused]");
    expect(await statusOf(runId)).toBe("paused");
    await page.waitForSelector("#action-resume");
    expect(await page.$("#action-pause")).toBeNull();
    await screenshot(page, "actions-paused");

    await act(page, "resume");
    await page.waitForSelector("#run-status[data-status=waiting]");
    const approveId = await page.$eval("[id^=action-approve-]", (el) => el.id);
    expect(await act(page, approveId.slice("action-".length))).toContain("Approve billing.issue-refund");
    await page.waitForSelector("#run-status[data-status=completed]", { timeout: 30_000 });
    expect(await statusOf(runId)).toBe("completed");
    expect(await page.$("#action-cancel")).toBeNull();
    await page.close();
  });

  it("denies a held call, and cancels a run", async () => {
    const denied = await heldRun("o-act-2");
    const denyId = await denied.page.$eval("[id^=action-deny-]", (el) => el.id);
    await act(denied.page, denyId.slice("action-".length));
    await denied.page.waitForSelector("#run-status[data-status=failed], #run-status[data-status=completed]", { timeout: 30_000 });
    const approvals = (await ui.api.call("GET", `/v1/runs/${denied.runId}/approvals`)).json.approvals as { status: string }[];
    expect(approvals[0]?.status).toBe("denied");
    await denied.page.close();

    const cancelled = await heldRun("o-act-3");
    expect(await act(cancelled.page, "cancel")).toContain("Cancel this run?");
    await cancelled.page.waitForSelector("#run-status[data-status=cancelled]");
    expect(await statusOf(cancelled.runId)).toBe("cancelled");
    await cancelled.page.close();
  });

  it("hides every action from a token without runs:write or approve", async () => {
    const made = await ui.api.call("POST", "/v1/tokens", { token: ui.dev.adminToken, body: { tenant: "dev", scopes: ["runs:read"] } });
    expect(made.status, made.text).toBe(201);
    const reader = await ui.browser.newContext();
    const login = await reader.newPage();
    await signIn(login, ui.dev.url, made.json.token as string);
    await login.close();
    const { runId, page } = await heldRun("o-act-4", reader);
    expect(await page.$("#actions button")).toBeNull();
    expect(await page.isHidden("#actions")).toBe(true);
    expect(await statusOf(runId)).toBe("waiting");
    await reader.close();
  });
});
