/**
 * The run inspector in a real headless Chromium against a real `wrangler dev`: a completed run's
 * DAG (nodes, edges, statuses), a run followed live while it executes, failed runs with their
 * cause, another tenant's run (404), and the refusals without a token. The offline model is slowed
 * so that a run lasts a few seconds and the live page can see steps change. Screenshots go to
 * test-output/inspector/.
 */
import { createHash } from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleClientScript } from "../../src/inspector/build-client.ts";
import { CLIENT_SCRIPT } from "../../src/inspector/client-bundle.generated.ts";
import { launchChromium, screenshot, signIn } from "../inspector/browser.ts";
import { client, INPUT, refundLwir, runOf, SEED_WORKFLOW } from "./support/api.ts";
import { startWranglerDev, type WranglerDev } from "./support/wrangler-dev.ts";

const LATENCY_MS = 700;
type LwirStep = { id: string; uses: string; needs: string[] };
type Lwir = { steps: LwirStep[]; output: { schema: unknown } } & Record<string, unknown>;

let dev: WranglerDev;
let api: ReturnType<typeof client>;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  [dev, browser] = await Promise.all([startWranglerDev({ offlineLatencyMs: LATENCY_MS }), launchChromium()]);
  api = client(dev.url, dev.devToken);
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signIn(page, dev.url, dev.devToken);
  await page.close();
});
afterAll(async () => {
  await browser?.close();
  await dev?.dispose();
});

async function versionOf(versionId: string): Promise<Lwir> {
  const r = await api.call("GET", `/v1/versions/${versionId}`);
  expect(r.status, r.text).toBe(200);
  return (r.json.version as { lwir: Lwir }).lwir;
}

async function openRun(runId: string, page?: Page): Promise<Page> {
  const p = page ?? (await context.newPage());
  await p.goto(`${dev.url}/runs/${runId}`);
  return p;
}

const sha256 = (text: string) => `sha256:${createHash("sha256").update(text).digest("hex")}`;

/**
 * A four-step DAG bound to the seed workflow: extract → (check, fanned out over the facts;
 * classify) → report. Built on a planned version of the seed workflow, for its schemas.
 */
async function diamondLwir(): Promise<Lwir> {
  const seed = runOf(await api.call("POST", `/v1/workflows/${SEED_WORKFLOW}/runs?wait=30`, { body: { input: INPUT } }));
  const base = await versionOf(seed.versionId as string);
  const check = "export async function run({ input }) {\n  return { length: String(input.fact).length };\n}\n";
  const steps = [
    {
      id: "extract",
      uses: "ai.generate",
      needs: [],
      with: { model: "gpt-4o-mini", prompt: "List two or three facts from: {{ input.transcript }}" },
      output: {
        mode: "object",
        schema: {
          type: "object",
          required: ["facts"],
          properties: { facts: { type: "array", items: { type: "string" }, minItems: 2, maxItems: 3 } },
        },
      },
    },
    {
      id: "check",
      uses: "code.run",
      needs: ["extract"],
      forEach: { items: "{{ steps.extract.output.facts }}" },
      with: {
        entrypoint: "check.ts",
        files: { "check.ts": { content: check, sha256: sha256(check) } },
        sandbox: { network: "deny", env: "deny", fs: "deny" },
        input: { fact: "{{ item }}" },
      },
      output: { mode: "object", schema: { type: "object", properties: { length: { type: "number" } } } },
    },
    {
      id: "classify",
      uses: "ai.generate",
      needs: ["extract"],
      with: { model: "gpt-4o-mini", prompt: "Severity of: {{ input.transcript }}" },
      output: { mode: "choice", values: ["low", "medium", "high"] },
    },
    {
      id: "report",
      uses: "ai.generate",
      needs: ["check", "classify"],
      with: { model: "gpt-4o-mini", prompt: "Summarize {{ input.ticketId }} at severity {{ steps.classify.output }}." },
      output: { mode: "object", schema: base.output.schema },
    },
  ];
  return { ...base, permissions: { models: ["gpt-4o-mini"], tools: [], secrets: [], network: [] }, steps } as unknown as Lwir;
}

const nodeStatuses = (page: Page) =>
  page.$$eval("#dag g.node", (nodes) => Object.fromEntries(nodes.map((n) => [n.getAttribute("data-step"), n.getAttribute("data-status")])));

describe("the client bundle", () => {
  it("is the committed one: a fresh esbuild bundle of src/inspector/client equals client-bundle.generated.ts", async () => {
    expect(await bundleClientScript()).toBe(CLIENT_SCRIPT);
  });
});

describe("access", () => {
  it("redirects the HTML to the login form and refuses the API with 401 when there is no token", async () => {
    for (const path of ["/runs", "/runs/run_anything", "/runs?status=failed"]) {
      const res = await fetch(`${dev.url}${path}`, { redirect: "manual" });
      expect(res.status, path).toBe(302);
      expect(res.headers.get("location")).toBe(`/login?next=${encodeURIComponent(path)}`);
    }
    for (const path of ["/v1/runs", "/v1/runs/run_anything", "/v1/runs/run_anything/events/stream"]) {
      const res = await fetch(`${dev.url}${path}`);
      expect(res.status, path).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
    }
  });

  it("logs in with a valid token only, setting an HttpOnly SameSite=Strict cookie the API accepts from the same origin only", async () => {
    const bad = await fetch(`${dev.url}/login`, {
      method: "POST",
      body: new URLSearchParams({ token: "nope", next: "/runs" }),
      redirect: "manual",
    });
    expect(bad.status).toBe(401);
    expect(bad.headers.get("set-cookie")).toBeNull();
    expect(await bad.text()).toContain("That token is not valid.");

    const ok = await fetch(`${dev.url}/login`, {
      method: "POST",
      body: new URLSearchParams({ token: dev.devToken, next: "//evil.example/x" }),
      redirect: "manual",
    });
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("/runs"); // not another site
    const cookie = ok.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^little_session=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    const session = cookie.split(";")[0] as string;

    expect((await fetch(`${dev.url}/runs`, { headers: { cookie: session }, redirect: "manual" })).status).toBe(200);
    // The API takes the cookie only on requests the browser marks same-origin.
    const api = (site?: string) =>
      fetch(`${dev.url}/v1/runs`, { headers: { cookie: session, ...(site ? { "sec-fetch-site": site } : {}) } }).then((r) => r.status);
    expect(await api("same-origin")).toBe(200);
    expect(await api("cross-site")).toBe(401);
    expect(await api("same-site")).toBe(401);
    expect(await api()).toBe(401);
    // Login posted from another site is refused.
    const csrf = await fetch(`${dev.url}/login`, {
      method: "POST",
      headers: { "sec-fetch-site": "cross-site" },
      body: new URLSearchParams({ token: dev.devToken }),
      redirect: "manual",
    });
    expect(csrf.status).toBe(403);
  });

  it("shows another tenant's run as not found, in the page and in the page's API calls", async () => {
    const created = await api.call("POST", "/v1/tokens", { token: dev.adminToken, body: { tenant: "inspector-b" } });
    expect(created.status, created.text).toBe(201);
    const other = created.json.token as string;
    const r = await api.call("POST", `/v1/workflows/${SEED_WORKFLOW}/runs?wait=30`, {
      body: { input: { ...INPUT, ticketId: "T-private" } },
    });
    const runId = runOf(r).runId;

    const asB = await browser.newContext();
    try {
      const page = await asB.newPage();
      await signIn(page, dev.url, other, `/runs/${runId}`);
      expect(page.url()).toBe(`${dev.url}/runs/${runId}`);
      await expect.poll(() => page.textContent("h1")).toBe("Run not found");
      const status = await page.evaluate(async (id) => (await fetch(`/v1/runs/${id}`)).status, runId);
      expect(status).toBe(404);
      const res = await fetch(`${dev.url}/runs/${runId}`, { headers: { authorization: `Bearer ${other}` } });
      expect(res.status).toBe(404);
      // B's own list does not show A's run.
      await page.goto(`${dev.url}/runs`);
      await page.waitForSelector("#runs-state:has-text('No runs match.')");
    } finally {
      await asB.close();
    }
  });
});

describe("a completed run", () => {
  it("lists it, then draws its DAG: one node per step, one edge per need, every node succeeded; Enter on a node opens its details", async () => {
    const lwir = await diamondLwir();
    const r = await api.call("POST", "/v1/lwir/runs?wait=30", { body: { lwir, input: { ...INPUT, ticketId: "T-done" } } });
    expect(r.status, r.text).toBe(200);
    const run = runOf(r);
    expect(run.status).toBe("completed");

    const page = await context.newPage();
    await page.goto(`${dev.url}/runs?status=completed`);
    const row = page.locator(`tr[data-run-id="${run.runId}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain(SEED_WORKFLOW);
    await expect.poll(() => row.locator("td.tokens").textContent()).toMatch(/^\d+$/);
    await screenshot(page, "runs-list");
    await Promise.all([page.waitForURL(`${dev.url}/runs/${run.runId}`), row.locator("a").click()]);

    await page.waitForSelector("#run-status[data-status=completed]");
    await expect.poll(() => page.locator("#dag g.node[data-status=succeeded]").count()).toBe(lwir.steps.length);
    const statuses = await nodeStatuses(page);
    expect(Object.keys(statuses).sort()).toEqual(lwir.steps.map((s) => s.id).sort());
    expect(new Set(Object.values(statuses))).toEqual(new Set(["succeeded"]));
    const kinds = await page.$$eval("#dag g.node > text.kind", (texts) => texts.map((t) => t.textContent));
    expect(kinds.sort()).toEqual(["ai.generate", "ai.generate", "ai.generate", "code.run · fan-out"]);
    // The fan-out step is one group node with a chip per branch.
    expect(await page.locator('#dag g.node[data-step="check"] rect.chip[data-status=succeeded]').count()).toBeGreaterThanOrEqual(2);
    const edges = await page.$$eval("#dag path.edge", (paths) =>
      paths.map((p) => `${p.getAttribute("data-from")}->${p.getAttribute("data-to")}`),
    );
    expect(edges.sort()).toEqual(lwir.steps.flatMap((s) => [...new Set(s.needs)].map((n) => `${n}->${s.id}`)).sort());
    expect(lwir.steps.length).toBeGreaterThan(1);
    expect(edges.length).toBeGreaterThan(0);

    // Input, output, usage, version and the definition link.
    expect(JSON.parse((await page.textContent("#run-input-body")) ?? "null")).toEqual({ ...INPUT, ticketId: "T-done" });
    expect(JSON.parse((await page.textContent("#run-output")) ?? "null")).toEqual(run.output);
    expect(await page.textContent("#version-id")).toBe(run.versionId);
    expect(await page.getAttribute("#definition-link", "href")).toMatch(/^\/v1\/definitions\/sha256%3A[0-9a-f]{64}$/);
    expect(await page.textContent("#summary-list")).toMatch(/Tokens\s*\d+ \(\d+ in \/ \d+ out\)/);
    // The timeline has the compile, the model calls and each step, with durations.
    const timeline = await page.$$eval("#timeline li", (items) => items.map((li) => li.getAttribute("data-kind")));
    expect(timeline).toEqual(expect.arrayContaining(["compile", "model", "step", "run"]));

    // Nodes come in reading order, layer by layer, which is the Tab order.
    expect(await page.$$eval("#dag g.node", (nodes) => nodes.map((n) => n.getAttribute("data-step")))).toEqual([
      "extract",
      "check",
      "classify",
      "report",
    ]);
    await page.focus('#dag g.node[data-step="extract"]');
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement.getAttribute('data-step')")).toBe("check");

    // Keyboard: Tab reaches a node, Enter opens its details.
    const modelStep = lwir.steps.find((s) => s.uses === "ai.generate") as LwirStep;
    await page.focus(`#dag g.node[data-step="${modelStep.id}"]`);
    await page.keyboard.press("Enter");
    await page.waitForSelector(`#details-step:has-text("${modelStep.id}")`);
    expect(await page.textContent("[data-testid=details-status]")).toBe("succeeded");
    const details = (await page.textContent("#details-body")) ?? "";
    expect(details).toContain("Model calls");
    expect(details).toMatch(/offline/);
    expect(await page.textContent("[data-testid=details-output]")).not.toBe("— (no output yet)");
    // A step's input as sent: its templates resolved against the run's input and the outputs it read.
    await page.click('#dag g.node[data-step="report"]');
    await page.waitForSelector('#details-step:has-text("report")');
    const classified = (await api.events(run.runId)).find((e) => e.type === "StepSucceeded" && e.payload.stepPath === "c1/classify");
    const severity = (classified?.payload as { output?: unknown } | undefined)?.output;
    expect(["low", "medium", "high"], JSON.stringify(classified)).toContain(severity);
    expect(JSON.parse((await page.textContent("[data-testid=details-input]")) ?? "null").prompt).toBe(
      "Summarize {{ input.ticketId }} at severity {{ steps.classify.output }}.",
    );
    expect(JSON.parse((await page.textContent("[data-testid=details-input-resolved]")) ?? "null").prompt).toBe(
      `Summarize T-done at severity ${String(severity)}.`,
    );
    await screenshot(page, "completed-run");
    await expectLayout(page, "1280x900");

    // A phone's width: nothing wider than the screen but the DAG's own scroll box.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);
    await screenshot(page, "completed-run-phone");
    await expectLayout(page, "390x844");
    await page.close();
  });
});

describe("a run followed live", () => {
  it("shows a node change status without reloading the page", async () => {
    const page = await context.newPage();
    let navigations = 0;
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) navigations++;
    });
    // Every node status change the page draws, in order (kept in the page, so a reload would lose it).
    // (Browser code as a string: this project's TypeScript has no DOM types.)
    await page.addInitScript({
      content: `
        window.statusLog = [];
        new MutationObserver((records) => {
          for (const r of records) {
            const el = r.target;
            if (el.matches && el.matches("g.node")) window.statusLog.push(el.getAttribute("data-step") + "=" + el.getAttribute("data-status"));
          }
        }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-status"] });`,
    });
    const r = await api.call("POST", `/v1/workflows/${SEED_WORKFLOW}/runs`, { body: { input: { ...INPUT, ticketId: "T-live" } } });
    expect(r.status, r.text).toBe(202);
    const runId = runOf(r).runId;
    await openRun(runId, page);
    await page.waitForSelector("#dag g.node");
    await page.waitForSelector("#dag g.node[data-status=running]", { timeout: 20_000 });
    await screenshot(page, "live-run-running", false);
    await page.waitForSelector("#run-status[data-status=completed]", { timeout: 30_000 });
    const log = (await page.evaluate("window.statusLog")) as string[];
    const running = log.find((entry) => entry.endsWith("=running"));
    expect(running, log.join(", ")).toBeDefined();
    const step = (running as string).split("=")[0];
    expect(log.indexOf(`${step}=succeeded`)).toBeGreaterThan(log.indexOf(running as string));
    expect(navigations).toBe(1);
    expect(await page.textContent("#live-state")).toBe("Run completed.");
    await screenshot(page, "live-run-completed");
    await page.close();
  });
});

describe("a failed run", () => {
  it("shows the cause of a step that threw, on the failed node and in the result", async () => {
    const base = runOf(await api.call("POST", `/v1/workflows/${SEED_WORKFLOW}/runs?wait=30`, { body: { input: INPUT } }));
    const lwir = await versionOf(base.versionId as string);
    const code = 'export async function run() {\n  throw new Error("boom: the ticket system is down");\n}\n';
    const terminal = lwir.steps.find((s) => !lwir.steps.some((o) => o.needs.includes(s.id))) as LwirStep;
    const explode = {
      id: "explode",
      uses: "code.run",
      needs: [terminal.id],
      with: {
        entrypoint: "explode.ts",
        files: { "explode.ts": { content: code, sha256: `sha256:${createHash("sha256").update(code).digest("hex")}` } },
        sandbox: { network: "deny", env: "deny", fs: "deny" },
      },
      output: { mode: "object", schema: lwir.output.schema },
    };
    const r = await api.call("POST", "/v1/lwir/runs?wait=30", {
      body: { lwir: { ...lwir, steps: [...lwir.steps, explode] }, input: INPUT },
    });
    expect(r.status, r.text).toBe(200);
    const run = runOf(r);
    expect(run.status).toBe("failed");

    const page = await openRun(run.runId);
    await page.waitForSelector("#run-status[data-status=failed]");
    expect(await page.textContent("#cause-code")).toBe("step_failed");
    expect(await page.textContent("#cause-message")).toContain("boom: the ticket system is down");
    await page.waitForSelector('#dag g.node[data-step="explode"][data-status=failed]');
    expect(await page.getAttribute(`#dag g.node[data-step="${terminal.id}"]`, "data-status")).toBe("succeeded");
    await page.click('#dag g.node[data-step="explode"]');
    await page.waitForSelector('#details-step:has-text("explode")');
    expect(await page.textContent("#details-body")).toContain("boom: the ticket system is down");
    await screenshot(page, "failed-run");
    // The run list counts the failed run's tokens as its page does (a failed run has no usage of its own).
    const pageTokens = /Tokens\s*(\d+)/.exec((await page.textContent("#summary-list")) ?? "")?.[1];
    expect(Number(pageTokens)).toBeGreaterThan(0);
    await page.goto(`${dev.url}/runs?status=failed`);
    const row = page.locator(`tr[data-run-id="${run.runId}"]`);
    await row.waitFor();
    await expect.poll(() => row.locator("td.tokens").textContent()).toBe(pageTokens);
    await page.close();
  });
});

describe("a section run and an approval", () => {
  it("lists a section's occurrences, and shows a step waiting for approval turn succeeded live once approved", async () => {
    const message = (n: number) => ({ from: `u${n}@example.com`, subject: `Subject ${n}`, body: `Body ${n}` });
    const section = runOf(await api.call("POST", "/v1/workflows/support.triage-inbox/runs?wait=30", { body: { input: message(1) } }));
    expect(section.status).toBe("waiting");
    await api.call("POST", `/v1/runs/${section.runId}/triggers?wait=30`, { body: { input: message(2) } });
    const sectionPage = await openRun(section.runId);
    await sectionPage.waitForSelector('#occurrences tr[data-occurrence="o2"]');
    expect(await sectionPage.locator("#occurrences tr[data-occurrence]").count()).toBe(2);
    expect(await sectionPage.getAttribute("#run-status", "data-status")).toBe("waiting");
    expect(await sectionPage.getAttribute("#run-status", "data-wait-reason")).toBe("trigger");
    await screenshot(sectionPage, "section-run");
    await sectionPage.close();

    const lwir = await refundLwir(api);
    const held = runOf(
      await api.call("POST", "/v1/lwir/runs", { body: { lwir, input: { orderId: "o-1", amountCents: 500, reason: "x" } } }),
    );
    const page = await openRun(held.runId);
    await page.waitForSelector('#dag g.node[data-step="refund"][data-status=waiting]');
    // The run, not only its step, waits, and says for what.
    await page.waitForSelector("#run-status[data-status=waiting][data-wait-reason=approval]");
    expect(await page.textContent("#wait-reason")).toContain("an approval");
    await screenshot(page, "waiting-for-approval");
    const [approval] = (await api.call("GET", `/v1/runs/${held.runId}/approvals`)).json.approvals as {
      approvalId: string;
      argsHash: string;
    }[];
    if (!approval) throw new Error("no approval listed");
    await api.call("POST", `/v1/runs/${held.runId}/approvals/${approval.approvalId}`, {
      body: { decision: "approve", argsHash: approval.argsHash },
    });
    await page.waitForSelector('#dag g.node[data-step="refund"][data-status=succeeded]');
    await page.waitForSelector("#run-status[data-status=completed]");
    await page.close();
  });
});

// Last: it restarts wrangler dev.
describe("a broken stream", () => {
  it("reconnects after the Worker is killed and restarted mid-run, and follows the run to its end without reloading", async () => {
    const page = await context.newPage();
    let navigations = 0;
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) navigations++;
    });
    const r = await api.call("POST", `/v1/workflows/${SEED_WORKFLOW}/runs`, { body: { input: { ...INPUT, ticketId: "T-broken" } } });
    expect(r.status, r.text).toBe(202);
    const runId = runOf(r).runId;
    await openRun(runId, page);
    await page.waitForSelector("#live-state:has-text('Live')");
    await dev.kill9();
    await page.waitForSelector("#live-state:has-text('reconnecting')", { timeout: 20_000 });
    await dev.restart();
    await page.waitForSelector("#run-status[data-status=completed]", { timeout: 60_000 });
    expect(navigations).toBe(1);
    // Every event once: the page resumed after the last seq it had.
    const log = await api.events(runId);
    const shown = await page.$$eval("#summary-list div", (items) => items.map((i) => i.textContent ?? ""));
    expect(shown).toContain(`Events${log.length}`);
    expect(await page.locator("#dag g.node[data-status=succeeded]").count()).toBeGreaterThan(0);
    await screenshot(page, "reconnected-run");
    await page.close();
  });
});

/**
 * The layout facts issue 31 asked for, measured in the page: the step graph starts in the first
 * screenful (scrolled to the top), no table overflows its panel (the model calls' Cost, Took and
 * Status included), and a name that is one word (a model, a workflow id) is never wrapped mid-word
 * where it fits on a line of its own.
 */
async function expectLayout(page: import("playwright-core").Page, label: string): Promise<void> {
  // Browser code as a string: this project's TypeScript has no DOM types.
  const facts = (await page.evaluate(`(() => {
    window.scrollTo(0, 0);
    const dag = document.querySelector(".dag-scroll").getBoundingClientRect();
    const overflowing = [...document.querySelectorAll("#details .table-scroll, #summary, #details")]
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => el.id || el.className);
    const brokenWords = [...document.querySelectorAll("#summary-list dd")].flatMap((dd) => {
      const text = dd.textContent.trim();
      if (text === "" || /s/.test(text)) return [];
      const range = document.createRange();
      range.selectNodeContents(dd);
      // Two lines: boxes whose tops lie a line apart (a badge's padding moves its box a few px only).
      const tops = [...range.getClientRects()].map((r) => r.top);
      const wrapped = tops.some((t) => Math.abs(t - tops[0]) > 12);
      return wrapped && text.length * 7 < dd.clientWidth ? [text] : [];
    });
    return { dagTop: dag.top, viewport: window.innerHeight, overflowing, brokenWords };
  })()`)) as { dagTop: number; viewport: number; overflowing: string[]; brokenWords: string[] };
  expect(facts.overflowing, label).toEqual([]);
  expect(facts.brokenWords, label).toEqual([]);
  if (label === "1280x900")
    expect(facts.dagTop, `${label}: the step graph starts in the first screenful`).toBeLessThan(facts.viewport - 150);
}
