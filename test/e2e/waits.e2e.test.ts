/**
 * Waits against a real `wrangler dev`: the inspector's generated signal form (headless Chromium)
 * sends the signal that a waiting billing.refund-review takes; a sleeping step shows its wake time;
 * and a sleep survives a SIGKILL of wrangler and workerd: restarted on the same state, the step
 * wakes within a second of its deadline (alarm-driven, not restart + duration). The sleep is 15 s,
 * not the 5 s: restarting wrangler dev alone takes 6–8 s on a 2-core machine, and the
 * claim is about a deadline that falls after the restart.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { screenshot } from "../inspector/browser.ts";
import { type Run, type RunEvent, runOf } from "./support/api.ts";
import { withInspector } from "./support/inspector.ts";
import { sleep } from "./support/wrangler-dev.ts";

const WORKFLOW = "billing.refund-review";
// Long enough for a restart of wrangler dev while the node project runs four files at once (it took over 15 s in CI).
const SLEEP_MS = 30_000;

const ui = withInspector();

async function view(runId: string): Promise<Run & Record<string, unknown>> {
  const r = await ui.api.call("GET", `/v1/runs/${runId}`);
  expect(r.status, r.text).toBe(200);
  return runOf(r) as Run & Record<string, unknown>;
}

async function until(runId: string, test: (run: Run & Record<string, unknown>) => boolean, timeoutMs = 30_000) {
  for (const end = Date.now() + timeoutMs; ; ) {
    const run = await view(runId);
    if (test(run)) return run;
    if (Date.now() > end) throw new Error(`run ${runId} never got there: ${JSON.stringify(run)}`);
    await sleep(100);
  }
}

const ANSWER = 'export function run() {\n  return { status: "expired", note: "slept" };\n}\n';

/** An LWIR run of billing.refund-review that sleeps, then answers in code (its schemas from the catalog). */
async function sleepRun(durationMs: number): Promise<string> {
  const catalog = await ui.api.call("GET", "/v1/workflows");
  const workflow = (catalog.json.workflows as { id: string; inputSchema: unknown; requestedOutput: { schema: unknown } }[]).find(
    (w) => w.id === WORKFLOW,
  );
  const lwir = {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: WORKFLOW, version: "0.1.0" },
    input: { schema: workflow?.inputSchema },
    output: { schema: workflow?.requestedOutput.schema },
    permissions: { models: [], tools: [], secrets: [], network: [] },
    steps: [
      { id: "nap", uses: "wait.sleep", needs: [], with: { durationMs } },
      {
        id: "answer",
        uses: "code.run",
        needs: ["nap"],
        with: {
          entrypoint: "answer.ts",
          files: { "answer.ts": { content: ANSWER, sha256: `sha256:${createHash("sha256").update(ANSWER).digest("hex")}` } },
          sandbox: { network: "deny", env: "deny", fs: "deny" },
        },
        output: workflow?.requestedOutput,
      },
    ],
  };
  const r = await ui.api.call("POST", "/v1/lwir/runs", { body: { lwir, input: { orderId: "o-nap", amountCents: 1, reason: "nap" } } });
  expect(r.status, r.text).toBe(202);
  return runOf(r).runId;
}

describe("waits in the inspector", () => {
  it("a run waiting for manager.decision shows a form from its schema; submitting it sends the signal and the run refunds", async () => {
    const r = await ui.api.call("POST", `/v1/workflows/${WORKFLOW}/runs`, {
      body: { input: { orderId: "ord-ui", amountCents: 990, reason: "Broken on arrival" } },
    });
    expect(r.status, r.text).toBe(202);
    const runId = runOf(r).runId;
    await until(runId, (run) => run.waitReason === "signal");
    const page = await ui.context.newPage();
    await page.goto(`${ui.dev.url}/runs/${runId}`);
    const form = page.locator('form[data-signal="manager.decision"]');
    await form.waitFor({ timeout: 15_000 });
    // The schema's boolean is a checkbox, its optional string a text field.
    expect(await form.locator('input[name="approved"]').getAttribute("type")).toBe("checkbox");
    expect(await form.locator('input[name="note"]').getAttribute("type")).toBe("text");
    await form.locator('input[name="approved"]').check();
    await form.locator('input[name="note"]').fill("Approved from the inspector");
    await screenshot(page, "waits-signal-form");
    await form.locator('button[type="submit"]').click();
    await form.locator(".signal-status", { hasText: "Sent manager.decision" }).waitFor({ timeout: 10_000 });
    const ended = await until(runId, (run) => run.status === "completed" || run.status === "failed");
    expect(ended).toMatchObject({ status: "completed", output: { status: "refunded", note: "Approved from the inspector" } });
    // The run ended: the waits section is gone.
    await page.locator("#waits").waitFor({ state: "hidden", timeout: 10_000 });
    await page.close();
  });

  it("a sleeping step shows its wake time", async () => {
    const runId = await sleepRun(60_000);
    const run = await until(runId, (x) => x.waitReason === "sleep");
    const page = await ui.context.newPage();
    await page.goto(`${ui.dev.url}/runs/${runId}`);
    const wake = page.locator('.wait-sleep[data-step="c1/nap"] time.wake-at');
    await wake.waitFor({ timeout: 15_000 });
    expect(await wake.getAttribute("datetime")).toBe(new Date(run.waitingUntil as number).toISOString());
    await screenshot(page, "waits-sleep");
    await page.close();
    await ui.api.call("POST", `/v1/runs/${runId}/cancel`, { body: { reason: "seen" } });
  });
});

describe("parent and child runs in the inspector", () => {
  it("a parent waiting for its child links to it, and the child's page links back to the parent", async () => {
    const r = await ui.api.call("POST", "/v1/workflows/support.escalate/runs", {
      body: { input: { ticketId: "T-ui", transcript: "Order o-ui was charged twice; please refund 1200 cents." } },
    });
    expect(r.status, r.text).toBe(202);
    const runId = runOf(r).runId;
    const waiting = await until(runId, (run) => run.waitReason === "child");
    const childId = (waiting.children as { runId: string }[])[0]?.runId as string;
    expect(childId).toMatch(/^run_child_/);
    const page = await ui.context.newPage();
    await page.goto(`${ui.dev.url}/runs/${runId}`);
    const link = page.locator(`#children li[data-child="${childId}"] a`);
    await link.waitFor({ timeout: 15_000 });
    expect(await page.locator(`#children li[data-child="${childId}"]`).textContent()).toContain("billing.refund");
    await screenshot(page, "waits-parent-children");
    await link.click();
    await page.waitForURL(`**/runs/${childId}`);
    const back = page.locator("#parent-link");
    await back.waitFor({ timeout: 15_000 });
    expect(await back.getAttribute("href")).toBe(`/runs/${runId}`);
    await back.click();
    await page.waitForURL(`**/runs/${runId}`);
    await page.close();
    await ui.api.call("POST", `/v1/runs/${runId}/cancel`, { body: { reason: "seen" } });
  });
});

describe("a sleep across a crash", () => {
  it("SIGKILL during a sleep; restarted on the same state, the step wakes within 1 s of its deadline", async () => {
    // Long enough that wrangler dev is back up (several seconds on a loaded machine) before the deadline.
    const runId = await sleepRun(SLEEP_MS);
    const run = await until(runId, (x) => x.waitReason === "sleep");
    const deadline = run.waitingUntil as number;
    await ui.dev.kill9();
    await sleep(500);
    await ui.dev.restart();
    // Nothing touches the run: its alarm (stored with the object) must wake it, at its deadline, or
    // at once if wrangler dev came back after it (a very loaded machine).
    const due = Math.max(deadline, Date.now());
    while (Date.now() < due + 2_000) await sleep(250);
    const events = await ui.api.events(runId);
    const woke = events.find((e: RunEvent) => e.type === "StepSucceeded");
    expect(woke, JSON.stringify(events.map((e: RunEvent) => e.type))).toBeDefined();
    expect(woke?.at as number).toBeGreaterThanOrEqual(deadline);
    expect((woke?.at as number) - due).toBeLessThan(1_000);
    const ended = await until(runId, (x) => x.status === "completed" || x.status === "failed");
    expect(ended).toMatchObject({ status: "completed", output: { status: "expired", note: "slept" } });
  });
});
