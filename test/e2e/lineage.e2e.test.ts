/**
 * Long-lived runs and deploy lineage against a real `wrangler dev` (real workerd, D1, Durable
 * Objects, HTTP): a section run of `support.triage-inbox` fed by HTTP triggers and a signed
 * webhook, a `billing.refund` tool call held for an approval bound to its arguments, and a
 * definition approved and pinned so the next run makes no planner call.
 */
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, expectApiError, type RunEvent, refundLwir, runOf } from "./support/api.ts";
import { sleep, startWranglerDev, type WranglerDev } from "./support/wrangler-dev.ts";

const CLI = resolve(import.meta.dirname, "../../src/cli/little.ts");
let dev: WranglerDev;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  dev = await startWranglerDev({ offlineLatencyMs: 20 });
  api = client(dev.url, dev.devToken);
});
afterAll(async () => {
  await dev?.dispose();
});

/** The real `little` CLI as a child process against this wrangler dev. */
function little(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { ...process.env, LITTLE_URL: dev.url, LITTLE_TOKEN: dev.devToken, NO_COLOR: "1" } },
      (error, stdout, stderr) => done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const message = (n: number) => ({ from: `user${n}@example.com`, subject: `Issue ${n}`, body: `My invoice ${n} is wrong.` });
type Occurrences = { total: number; completed: number; failed: number; pending: number };
const plannerSessions = (events: RunEvent[]) =>
  events.filter((e) => e.type === "harness.session.started" && e.payload.role === "planner").length;

async function untilOccurrences(runId: string, completed: number): Promise<Occurrences> {
  for (let i = 0; i < 150; i++) {
    const run = runOf(await api.call("GET", `/v1/runs/${runId}`)) as { occurrences?: Occurrences };
    if ((run.occurrences?.completed ?? 0) >= completed && run.occurrences?.pending === 0) return run.occurrences;
    await sleep(100);
  }
  throw new Error(`run ${runId} did not complete ${completed} occurrences`);
}

let sectionVersion = "";

describe("a fresh Worker's definitions", () => {
  it("answers GET /v1/definitions/<hash> for every hash GET /v1/workflows lists, with no /definition call first", async () => {
    const listed = await api.call("GET", "/v1/workflows");
    expect(listed.status).toBe(200);
    const workflows = listed.json.workflows as { id: string; definitionHash: string }[];
    expect(workflows.length).toBeGreaterThan(0);
    for (const w of workflows) {
      const r = await api.call("GET", `/v1/definitions/${w.definitionHash}`);
      expect(r.status, `${w.id}: ${JSON.stringify(r.json)}`).toBe(200);
      expect(r.json).toMatchObject({ definitionHash: w.definitionHash, workflowId: w.id, live: true });
    }
  });
});

describe("a section run over HTTP", () => {
  it("plans once, serves HTTP triggers and a signed webhook as occurrences, and ends on cancel", async () => {
    const started = await api.call("POST", "/v1/workflows/support.triage-inbox/runs?wait=30", { body: { input: message(1) } });
    expect(started.status, started.text).toBe(202);
    const run = runOf(started) as ReturnType<typeof runOf> & { occurrences?: Occurrences };
    expect(run.status).toBe("waiting");
    sectionVersion = run.versionId ?? "";
    expect(sectionVersion).toMatch(/^wfver_/);

    const second = await api.call("POST", `/v1/runs/${run.runId}/triggers?wait=30`, {
      body: { input: message(2) },
      headers: { "idempotency-key": "msg-2" },
    });
    expect(second.status, second.text).toBe(202);
    expect(second.json).toMatchObject({ occurrenceId: "o2", created: true, run: { status: "waiting" } });

    const body = JSON.stringify(message(3));
    const sendHook = () => {
      const at = new Date();
      return api.call("POST", `/v1/hooks/support.triage-inbox/runs/${run.runId}`, {
        token: null,
        raw: body,
        headers: {
          "webhook-id": "msg_inbox_3",
          "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
          "webhook-signature": new Webhook(dev.webhookSecret).sign("msg_inbox_3", at, body),
        },
      });
    };
    const hooked = await sendHook();
    expect(hooked.status, hooked.text).toBe(202);
    expect(hooked.json).toMatchObject({ occurrenceId: "o3", created: true });
    expect((await sendHook()).json).toMatchObject({ occurrenceId: "o3", created: false });
    expect(await untilOccurrences(run.runId, 3)).toMatchObject({ total: 3, completed: 3, failed: 0, pending: 0 });

    const events = await api.events(run.runId);
    expect(plannerSessions(events)).toBe(1);
    expect(events.filter((e) => e.type === "OccurrenceCompleted").map((e) => e.payload.occurrenceId)).toEqual(["o1", "o2", "o3"]);

    expect(runOf(await api.call("POST", `/v1/runs/${run.runId}/cancel`)).status).toBe("cancelled");
    expectApiError(await api.call("POST", `/v1/runs/${run.runId}/triggers`, { body: { input: message(4) } }), 409, "run_ended");
  });
});

describe("an approved, pinned definition", () => {
  it("runs the pinned version with no planner call", async () => {
    const live = await api.call("GET", "/v1/workflows/support.triage-inbox/definition");
    expect(live.json.snapshot).toMatchObject({ section: { kind: "onTrigger", onBodyFailure: "continue" } });
    const hash = live.json.definitionHash as string;
    expect((await api.call("POST", `/v1/definitions/${hash}/approve`)).status).toBe(200);
    const pinned = await api.call("POST", `/v1/definitions/${hash}/pin`, { body: { versionId: sectionVersion } });
    expect(pinned.status, pinned.text).toBe(200);
    const started = await api.call("POST", "/v1/workflows/support.triage-inbox/runs?wait=30", { body: { input: message(9) } });
    const run = runOf(started);
    expect(run).toMatchObject({ status: "waiting", versionId: sectionVersion });
    expect(plannerSessions(await api.events(run.runId))).toBe(0);
    await api.call("POST", `/v1/runs/${run.runId}/cancel`);
  });
});

describe("a tool call held for approval", () => {
  it("waits as waiting_for_approval, refuses a decision for other arguments, and refunds once when approved", async () => {
    const lwir = await refundLwir(api);
    const started = await api.call("POST", "/v1/lwir/runs", {
      body: { lwir, input: { orderId: "o-77", amountCents: 1250, reason: "late" } },
    });
    expect(started.status, started.text).toBe(202);
    const runId = runOf(started).runId;
    let approval: { approvalId: string; argsHash: string; status: string; args: unknown } | undefined;
    for (let i = 0; i < 100 && !approval; i++) {
      approval = ((await api.call("GET", `/v1/runs/${runId}/approvals`)).json.approvals as (typeof approval)[])[0];
      if (!approval) await sleep(100);
    }
    if (!approval) throw new Error("no approval requested");
    expect(approval).toMatchObject({ status: "waiting_for_approval", args: { orderId: "o-77", amountCents: 1250 } });
    const path = `/v1/runs/${runId}/approvals/${approval.approvalId}`;
    expectApiError(
      await api.call("POST", path, { body: { decision: "approve", argsHash: `sha256:${"0".repeat(64)}` } }),
      409,
      "approval_args_mismatch",
    );
    expect((await api.call("POST", path, { body: { decision: "approve", argsHash: approval.argsHash } })).status).toBe(200);
    const { run } = await api.pollUntilEnded(runId);
    expect(run).toMatchObject({
      status: "completed",
      output: { orderId: "o-77", amountCents: 1250, refundId: expect.stringMatching(/^rf_/) },
    });
    const events = await api.events(runId);
    expect(events.filter((e) => e.type === "ApprovalDecided")).toHaveLength(1);
  });
});

describe("the little CLI for sections and approvals", () => {
  it("triggers a section run, and approves a held refund after showing its arguments", async () => {
    const started = await little(["run", "support.triage-inbox", "--input", JSON.stringify(message(20)), "--wait", "30", "--json"]);
    expect(started.code, started.stderr).toBe(0);
    const runId = (JSON.parse(started.stdout) as { run: { runId: string; status: string } }).run.runId;
    expect(JSON.parse(started.stdout).run.status).toBe("waiting");
    const triggered = await little(["trigger", runId, "--input", JSON.stringify(message(21)), "--wait", "30", "--json"]);
    expect(triggered.code, triggered.stderr).toBe(0);
    expect(JSON.parse(triggered.stdout)).toMatchObject({ occurrenceId: "o2", created: true, run: { status: "waiting" } });
    const bad = await little(["trigger", runId, "--input", "{not json"]);
    expect(bad.code).toBe(2);
    await little(["cancel", runId]);

    const lwir = await refundLwir(api);
    const held = runOf(
      await api.call("POST", "/v1/lwir/runs", { body: { lwir, input: { orderId: "o-cli", amountCents: 900, reason: "cli" } } }),
    );
    let listed = { code: 1, stdout: "", stderr: "" };
    for (let i = 0; i < 100; i++) {
      listed = await little(["approvals", held.runId, "--json"]);
      if ((JSON.parse(listed.stdout || "{}") as { approvals?: unknown[] }).approvals?.length) break;
      await sleep(100);
    }
    const [approval] = (JSON.parse(listed.stdout) as { approvals: { approvalId: string; status: string }[] }).approvals;
    expect(approval?.status).toBe("waiting_for_approval");
    // The run itself waits, and says for what: in `little run`'s view and in the run index.
    const shown = await little(["runs", "--status", "waiting", "--wait-reason", "approval", "--limit", "200"]);
    for (let i = 0; i < 50 && !shown.stdout.includes(held.runId); i++) {
      await sleep(100);
      Object.assign(shown, await little(["runs", "--status", "waiting", "--wait-reason", "approval", "--limit", "200"]));
    }
    expect(shown.stdout.split("\n").find((line) => line.startsWith(held.runId))).toContain("waiting (approval)");
    const approved = await little(["approve", held.runId, approval?.approvalId as string]);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain('billing.issue-refund {"amountCents":900,"orderId":"o-cli"}');
    expect(approved.stdout).toContain("approved");
    const { run } = await api.pollUntilEnded(held.runId);
    expect(run).toMatchObject({ status: "completed", output: { orderId: "o-cli", amountCents: 900 } });
    const missing = await little(["approve", held.runId, "apr_nope"]);
    expect(missing.code).toBe(2);
  });

  it("lists a workflow's sections and supersedes one into another", async () => {
    const start = async (n: number) => {
      const r = await little(["run", "support.triage-inbox", "--input", JSON.stringify(message(n)), "--wait", "30", "--json"]);
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { run: { runId: string } }).run.runId;
    };
    const [old, fresh] = [await start(30), await start(31)];
    const listed = await little(["sections", "support.triage-inbox", "--json"]);
    expect(listed.code, listed.stderr).toBe(0);
    const sections = (JSON.parse(listed.stdout) as { sections: { runId: string; stale: boolean }[] }).sections;
    expect(sections.filter((s) => s.runId === old || s.runId === fresh).map((s) => s.stale)).toEqual([false, false]);
    expect((await little(["sections", "support.triage-inbox", "--stale"])).stdout).toContain("no stale sections");
    const superseded = await little(["supersede", old, "--into", fresh]);
    expect(superseded.code, superseded.stderr).toBe(0);
    expect(superseded.stdout).toContain(`superseded by ${fresh}`);
    expect(runOf(await api.call("GET", `/v1/runs/${old}`))).toMatchObject({ status: "failed", cause: { code: "section_superseded" } });
    expect((await little(["supersede", old])).code).toBe(2);
    await little(["cancel", fresh]);
  });
});
