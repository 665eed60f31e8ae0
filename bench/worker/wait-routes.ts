/**
 * Bench routes of the waits (issue 26), timed inside the workerd process: a signal's round trip
 * (the send's answer → the waiting step's `StepSucceeded`), ours against Cloudflare Workflows'
 * `sendEvent` → `waitForEvent`, and many runs sleeping at once (each run's lateness: its
 * `StepSucceeded` time minus the deadline its `WaitStarted` recorded).
 */
import { type Context, Hono } from "hono";
import { z } from "zod";
import { runClient } from "../../src/adapters/cloudflare/run-client.ts";
import { app } from "../../src/api/app.ts";
import { capabilitiesOf } from "../../src/api/workflow-capabilities.ts";
import type { RegisteredWorkflow } from "../../src/engine/run-environment.ts";
import type { RunEvent } from "../../src/ports/run-events.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import { model } from "../../src/sdk/model.ts";
import { benchModel } from "./counting-models.ts";
import type { PeerWaitOutput } from "./peer-wait.ts";
import type { BenchEnv } from "./routes.ts";

export type WaitBenchEnv = BenchEnv & { BENCH_WAIT: Workflow<Record<string, never>> };

const TENANT = "dev";
export const WAIT_WORKFLOW = "bench.wait";

/** The workflow the wait benchmarks run from LWIR: one signal, `go`, with any object payload. */
export const waitWorkflow: RegisteredWorkflow = {
  definition: defineWorkflow({
    id: WAIT_WORKFLOW,
    description: "Waits for a signal or sleeps.",
    input: z.object({}),
    output: { mode: "json" },
    models: [model(benchModel("bench-fast"), { id: "fast", description: "Unused." })],
    planner: { model: benchModel("bench-planner"), system: "Unused: benchmarks give their LWIR." },
    signals: { go: { schema: z.looseObject({}), description: "Lets the run go on" } },
  }),
  tools: {},
};

async function lwirOf(step: Record<string, unknown>): Promise<Record<string, unknown>> {
  const caps = await capabilitiesOf(waitWorkflow);
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: WAIT_WORKFLOW, version: "0.1.0" },
    input: { schema: caps.inputSchema },
    output: { schema: caps.outputSchema },
    permissions: { models: [], tools: [], secrets: [], network: [] },
    steps: [{ id: "wait", needs: [], ...step }],
  };
}

export const waitRoutes = new Hono<{ Bindings: WaitBenchEnv }>();

waitRoutes.use("/bench/waits/*", async (c, next) => {
  if (c.req.header("authorization") !== `Bearer ${c.env.LITTLE_DEV_TOKEN}`)
    return c.json({ error: { code: "unauthorized", message: "The bench routes take the dev token" } }, 401);
  await next();
});

type Ctx = Context<{ Bindings: WaitBenchEnv }>;

const api = (c: Ctx, path: string, body: unknown) =>
  app.fetch(
    new Request(new URL(path, c.req.url), {
      method: "POST",
      headers: { authorization: `Bearer ${c.env.LITTLE_DEV_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    c.env,
    c.executionCtx,
  );

async function startRun(c: Ctx, step: Record<string, unknown>): Promise<string> {
  const res = await api(c, "/v1/lwir/runs", { lwir: await lwirOf(step), input: {} });
  const body = (await res.json()) as { run?: { runId: string }; error?: unknown };
  if (!body.run) throw new Error(`start refused: ${JSON.stringify(body.error)}`);
  return body.run.runId;
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The LWIR of a run that waits for the signal `go` (an hour at most), for clients that start and signal runs themselves. */
waitRoutes.post("/bench/waits/signal-lwir", async (c) =>
  c.json({ lwir: await lwirOf({ uses: "wait.signal", with: { signals: ["go"], timeoutMs: 3_600_000 } }) }),
);

/** One round trip each: ours (signal → wait.signal) and the peer's (sendEvent → waitForEvent). */
waitRoutes.post("/bench/waits/round-trip", async (c) => {
  // Ours: a run waiting for `go`.
  const runId = await startRun(c, { uses: "wait.signal", with: { signals: ["go"], timeoutMs: 3_600_000 } });
  const run = runClient(c.env.RUNS, TENANT, runId);
  for (const until = Date.now() + 30_000; (await run.status()).waitReason !== "signal"; await settle(20))
    if (Date.now() > until) return c.json({ error: { code: "bench_wait_never_started", message: `run ${runId} never waited` } }, 502);
  const sentAt = Date.now();
  const res = await api(c, `/v1/runs/${runId}/signals`, { name: "go", payload: {} });
  const answeredAt = Date.now();
  if (res.status !== 202) return c.json({ error: { code: "bench_signal_failed", message: await res.text() } }, 502);
  await run.waitForEnd(30_000);
  const events = await run.events({ limit: 1_000 });
  const done = events.find((e) => e.type === "StepSucceeded") as RunEvent | undefined;
  // The peer: an instance waiting for `decision`.
  const instance = await c.env.BENCH_WAIT.create({ params: {} });
  // Local Workflows may report a waiting instance as "running": give it time to reach its wait either way.
  let peerStatus = "";
  for (const until = Date.now() + 3_000; Date.now() < until; await settle(50)) {
    peerStatus = (await instance.status()).status;
    if (peerStatus === "waiting" || peerStatus === "errored" || peerStatus === "terminated") break;
  }
  await settle(200);
  const peerSentAt = Date.now();
  await instance.sendEvent({ type: "decision", payload: {} });
  const peerAnsweredAt = Date.now();
  let output: PeerWaitOutput | undefined;
  for (const until = Date.now() + 30_000; Date.now() < until; await settle(50)) {
    const status = await instance.status();
    if (status.status === "complete") {
      output = status.output as PeerWaitOutput;
      break;
    }
  }
  if (!done || !output) return c.json({ error: { code: "bench_round_trip_failed", message: "a wait never ended" } }, 502);
  return c.json({
    oursFromAnswerMs: done.at - answeredAt,
    oursFromSendMs: done.at - sentAt,
    oursAckMs: answeredAt - sentAt,
    peerFromAnswerMs: output.wokeAt - peerAnsweredAt,
    peerFromSendMs: output.wokeAt - peerSentAt,
    peerAckMs: peerAnsweredAt - peerSentAt,
    peerStatusBeforeSend: peerStatus,
  });
});

/** Starts `count` runs that each sleep `sleepMs`; answers their ids. */
waitRoutes.post("/bench/waits/sleepers", async (c) => {
  const { count, sleepMs } = await c.req.json<{ count: number; sleepMs: number }>();
  const runIds: string[] = [];
  const t0 = Date.now();
  // A few starts at a time: each is a real start (D1 quota, run object, index row).
  const batch = 20;
  for (let i = 0; i < count; i += batch)
    runIds.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(batch, count - i) }, () => startRun(c, { uses: "wait.sleep", with: { durationMs: sleepMs } })),
      )),
    );
  return c.json({ runIds, startMs: Date.now() - t0 });
});

/** Each run's lateness (StepSucceeded − WaitStarted.until), or null when it has not woken yet. */
waitRoutes.post("/bench/waits/sleepers-result", async (c) => {
  const { runIds } = await c.req.json<{ runIds: string[] }>();
  const lateness = await Promise.all(
    runIds.map(async (runId) => {
      const events = await runClient(c.env.RUNS, TENANT, runId).events({ limit: 100 });
      const until = (events.find((e) => e.type === "WaitStarted")?.payload as { until?: number } | undefined)?.until;
      const woke = events.find((e) => e.type === "StepSucceeded")?.at;
      return until === undefined || woke === undefined ? null : woke - until;
    }),
  );
  return c.json({ lateness });
});
