/**
 * `npm run demo`: starts the Worker locally (migrations applied; the offline model unless a
 * provider key is set in .dev.vars), runs the seed's support.summarize-ticket example once through
 * the HTTP trigger and once through a signed Standard Webhooks delivery, then billing.invoice-totals,
 * whose code.run step fails once and is repaired by a fixer session, then a burst of
 * support.reply-draft runs queued by its per-customer concurrency limit; prints each run's event log
 * as `little events` does and the run's address, then stops. `--serve` keeps the Worker running;
 * `--port <n>` serves on that port (default 8787, or a free one when 8787 is taken).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { Webhook } from "standardwebhooks";
import { demoFlowControl } from "./demo-flow.ts";

const serve = process.argv.includes("--serve");
const portAt = process.argv.indexOf("--port");
/** `--port <n>`: serve there (and fail if it is taken); without it, 8787 or a free port when 8787 is taken. */
const wantedPort = portAt === -1 ? undefined : Number(process.argv[portAt + 1]);
if (wantedPort !== undefined && !(Number.isInteger(wantedPort) && wantedPort > 0 && wantedPort < 65_536)) {
  console.error("demo: --port takes a port number, e.g. npm run demo -- --port 8801");
  process.exit(2);
}

function devVars(): Record<string, string> {
  if (!existsSync(".dev.vars")) {
    copyFileSync(".dev.vars.example", ".dev.vars");
    console.log("demo: created .dev.vars from .dev.vars.example");
  }
  const vars: Record<string, string> = {};
  for (const line of readFileSync(".dev.vars", "utf8").split("\n")) {
    const match = /^\s*([A-Z0-9_]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (match) vars[match[1] as string] = (match[2] as string).replace(/^"(.*)"$/, "$1");
  }
  return vars;
}

function freePort(preferred: number): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => {
      const fallback = createServer();
      fallback.listen(0, "127.0.0.1", () => {
        const port = (fallback.address() as { port: number }).port;
        fallback.close(() => resolve(port));
      });
    });
    server.listen(preferred, "127.0.0.1", () => server.close(() => resolve(preferred)));
  });
}

async function waitForHealth(url: string, worker: ChildProcess): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (worker.exitCode !== null) throw new Error(`wrangler dev exited with code ${worker.exitCode}`);
    try {
      if ((await fetch(`${url}/v1/health`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("wrangler dev did not answer /v1/health within 90 s");
}

function printEvents(url: string, token: string, runId: string): void {
  spawnSync(process.execPath, ["src/cli/little.ts", "events", runId], {
    stdio: "inherit",
    env: { ...process.env, LITTLE_URL: url, LITTLE_TOKEN: token },
  });
}

async function main(): Promise<void> {
  const vars = devVars();
  const token = vars.LITTLE_DEV_TOKEN ?? "dev-token";
  const secret = vars.LITTLE_WEBHOOK_SECRET;
  const port = wantedPort ?? (await freePort(8787));
  const url = `http://127.0.0.1:${port}`;
  const migrate = spawnSync("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local"], { stdio: ["ignore", "ignore", "inherit"] });
  if (migrate.status !== 0) throw new Error("applying D1 migrations failed");
  console.log(`demo: starting the Worker on ${url} …`);
  const worker = spawn(
    "npx",
    [
      "wrangler",
      "dev",
      "--local",
      "--var",
      "LITTLE_ENV:development",
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      "--show-interactive-dev-session=false",
    ],
    {
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  let output = "";
  worker.stdout?.on("data", (d) => (output += d));
  worker.stderr?.on("data", (d) => (output += d));
  const stop = () => {
    try {
      if (worker.pid) process.kill(-worker.pid, "SIGTERM");
    } catch {
      // already gone
    }
  };
  process.on("SIGINT", () => {
    stop();
    process.exit(130);
  });
  try {
    await waitForHealth(url, worker);
    const input = { ticketId: "T-1001", transcript: "Customer: I was charged twice for my March invoice and need a refund today." };

    console.log("\n— 1. HTTP trigger: POST /v1/workflows/support.summarize-ticket/runs?wait=60\n");
    const res = await fetch(`${url}/v1/workflows/support.summarize-ticket/runs?wait=60`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ input }),
    });
    const started = (await res.json()) as {
      run: { runId: string; status: string; output?: unknown; versionId?: string };
      links: { self: string };
    };
    console.log(`run ${started.run.runId}: ${started.run.status}, version ${started.run.versionId}`);
    console.log(`output: ${JSON.stringify(started.run.output)}`);
    printEvents(url, token, started.run.runId);
    console.log(`address: ${started.links.self}`);

    if (secret) {
      console.log("\n— 2. Signed webhook: POST /v1/hooks/support.summarize-ticket (Standard Webhooks)\n");
      const body = JSON.stringify({ ticketId: "T-1002", transcript: "The mobile app crashes on launch after the latest update." });
      const id = `msg_demo_${Date.now()}`;
      const now = new Date();
      const hook = await fetch(`${url}/v1/hooks/support.summarize-ticket`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "webhook-id": id,
          "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
          "webhook-signature": new Webhook(secret).sign(id, now, body),
        },
        body,
      });
      const delivered = (await hook.json()) as { run: { runId: string }; links: { self: string } };
      let status = "";
      for (let i = 0; i < 240 && !["completed", "failed", "cancelled"].includes(status); i++) {
        await new Promise((r) => setTimeout(r, 250));
        const view = (await (await fetch(delivered.links.self, { headers: { authorization: `Bearer ${token}` } })).json()) as {
          run: { status: string };
        };
        status = view.run.status;
      }
      console.log(`run ${delivered.run.runId}: ${status} (webhook ${id}, answered ${hook.status})`);
      printEvents(url, token, delivered.run.runId);
      console.log(`address: ${delivered.links.self}`);
    }

    console.log("\n— 3. A code.run step repaired by its fixer: POST /v1/workflows/billing.invoice-totals/runs?wait=60\n");
    // The plan comes from the workflow's planner skill; its code reads input.lineitems (a bug), so the
    // first attempt throws, a fixer session repairs the file, and the same attempt succeeds.
    const invoice = {
      invoiceId: "INV-2041",
      lineItems: [
        { description: "Seats (3 x 12.00)", quantity: 3, unitCents: 1200 },
        { description: "Priority support", quantity: 1, unitCents: 5000 },
      ],
      taxRate: 0.2,
    };
    const fixed = await fetch(`${url}/v1/workflows/billing.invoice-totals/runs?wait=60`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ input: invoice }),
    });
    const totals = (await fixed.json()) as { run: { runId: string; status: string; output?: unknown }; links: { self: string } };
    console.log(`run ${totals.run.runId}: ${totals.run.status}`);
    console.log(`output: ${JSON.stringify(totals.run.output)}`);
    printEvents(url, token, totals.run.runId);
    console.log(`address: ${totals.links.self}`);

    console.log("\n— 4. A run that waits for a person: billing.refund-review and POST /v1/runs/:runId/signals\n");
    // The run summarizes, then waits (for free: its deadline is the run object's alarm) for the
    // manager's decision, sent here as a signal; then it refunds.
    const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const review = (await (
      await fetch(`${url}/v1/workflows/billing.refund-review/runs`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ input: { orderId: "ord-5521", amountCents: 1999, reason: "Charged twice for one order" } }),
      })
    ).json()) as { run: { runId: string }; links: { self: string } };
    let waiting: { status: string; waitReason?: string; awaitingSignals?: { name: string }[] } = { status: "pending" };
    for (let i = 0; i < 120 && waiting.waitReason !== "signal" && !["completed", "failed"].includes(waiting.status); i++) {
      await new Promise((r) => setTimeout(r, 250));
      waiting = ((await (await fetch(review.links.self, { headers: auth })).json()) as { run: typeof waiting }).run;
    }
    console.log(
      `run ${review.run.runId}: ${waiting.status} (${waiting.waitReason}) for ${waiting.awaitingSignals?.map((s) => s.name).join(", ")}`,
    );
    const signal = await fetch(`${url}/v1/runs/${review.run.runId}/signals`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({
        name: "manager.decision",
        payload: { approved: true, note: "Duplicate charge confirmed" },
        id: "demo-decision",
      }),
    });
    console.log(`signal manager.decision: ${signal.status} ${JSON.stringify(((await signal.json()) as { signal: unknown }).signal)}`);
    let reviewed: { status: string; output?: unknown } = { status: "waiting" };
    for (let i = 0; i < 120 && !["completed", "failed", "cancelled"].includes(reviewed.status); i++) {
      await new Promise((r) => setTimeout(r, 250));
      reviewed = ((await (await fetch(review.links.self, { headers: auth })).json()) as { run: typeof reviewed }).run;
    }
    console.log(`run ${review.run.runId}: ${reviewed.status}`);
    console.log(`output: ${JSON.stringify(reviewed.output)}`);
    printEvents(url, token, review.run.runId);
    console.log(`address: ${review.links.self}`);

    console.log("\n— 5. A workflow that calls another: POST /v1/workflows/support.escalate/runs (billing.refund runs as a child run)\n");
    const escalate = await fetch(`${url}/v1/workflows/support.escalate/runs?wait=5`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ input: { ticketId: "T-1003", transcript: "Customer: order ord_55 arrived broken; please refund it." } }),
    });
    type DemoRun = { runId: string; status: string; waitReason?: string; output?: unknown; children?: { runId: string }[] };
    const getRun = async (id: string) =>
      (
        (await (await fetch(`${url}/v1/runs/${id}`, { headers: auth })).json()) as {
          run: DemoRun & { approvals?: { approvalId: string; argsHash: string; status: string }[] };
        }
      ).run;
    let parentRun = ((await escalate.json()) as { run: DemoRun }).run;
    for (let i = 0; i < 100 && !parentRun.children?.length; i++) {
      await new Promise((r) => setTimeout(r, 100));
      parentRun = await getRun(parentRun.runId);
    }
    const childId = parentRun.children?.[0]?.runId;
    console.log(`run ${parentRun.runId}: ${parentRun.status}${parentRun.waitReason ? ` (${parentRun.waitReason})` : ""}, child ${childId}`);
    if (childId) {
      // The child (billing.refund) waits for a person to approve its refund: approve it here.
      let child = await getRun(childId);
      for (let i = 0; i < 100 && !child.approvals?.some((a) => a.status === "waiting_for_approval"); i++) {
        await new Promise((r) => setTimeout(r, 100));
        child = await getRun(childId);
      }
      const approval = child.approvals?.find((a) => a.status === "waiting_for_approval");
      if (approval) {
        await fetch(`${url}/v1/runs/${childId}/approvals/${approval.approvalId}`, {
          method: "POST",
          headers: auth,
          body: JSON.stringify({ decision: "approve", argsHash: approval.argsHash }),
        });
        console.log(`approved the child's refund (${approval.approvalId})`);
      }
      for (let i = 0; i < 200 && !["completed", "failed", "cancelled"].includes(parentRun.status); i++) {
        await new Promise((r) => setTimeout(r, 100));
        parentRun = await getRun(parentRun.runId);
      }
      console.log(`run ${parentRun.runId}: ${parentRun.status}`);
      console.log(`output: ${JSON.stringify(parentRun.output)}`);
      console.log(`inspect: ${url}/runs/${parentRun.runId} (links to the child ${url}/runs/${childId})`);
    }
    await demoFlowControl(url, token);

    if (serve) {
      console.log(
        `\ndemo: the Worker keeps running on ${url} (Ctrl-C to stop). Try: LITTLE_URL=${url} LITTLE_TOKEN=${token} npx little runs`,
      );
      await new Promise(() => {});
    }
  } catch (error) {
    console.error(
      `demo failed: ${error instanceof Error ? error.message : String(error)}\n--- wrangler output ---\n${output.slice(-4000)}`,
    );
    process.exitCode = 1;
  } finally {
    if (!serve) stop();
  }
}

await main().catch((error: unknown) => {
  console.error(`demo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
