/**
 * Bench-only HTTP routes of the bench Worker (never in src/worker.ts). Each times one thing from
 * inside the workerd process — a Node client polling over HTTP would distort it (TOOLCHAIN.md) —
 * and answers the raw figures; the Node side repeats and summarizes them.
 */
import { Hono } from "hono";
import { runClient, runObjectStub } from "../../src/adapters/cloudflare/run-client.ts";
import { app } from "../../src/api/app.ts";
import { capabilitiesOf } from "../../src/api/workflow-capabilities.ts";
import type { RegisteredWorkflow } from "../../src/engine/run-environment.ts";
import type { RunEvent } from "../../src/ports/run-events.ts";
import { wire } from "../../src/wiring.ts";
import type { AppendResult, BenchRunObject, DriveResult, FillResult, ReplayResult } from "./bench-run-object.ts";
import { benchLwir, type LwirShape } from "./bench-workflows.ts";
import { modelCalls } from "./counting-models.ts";
import type { PeerChainOutput, PeerChainParams } from "./peer-chain.ts";

export type BenchEnv = Env & {
  BENCH_CHAIN: Workflow<PeerChainParams>;
  BENCH_RUNS: DurableObjectNamespace<BenchRunObject>;
};

/** The bench routes' tenant: the one `LITTLE_DEV_TOKEN` maps to. */
const TENANT = "dev";
const ENDED = new Set(["completed", "failed", "cancelled"]);
/** How often the peer's status is read; faster polling slows Workflows itself (TOOLCHAIN.md). */
const PEER_POLL_MS = 50;
const RUN_TIMEOUT_MS = 600_000;

export const benchRoutes = new Hono<{ Bindings: BenchEnv }>();

benchRoutes.use("/bench/*", async (c, next) => {
  if (c.req.header("authorization") !== `Bearer ${c.env.LITTLE_DEV_TOKEN}`)
    return c.json({ error: { code: "unauthorized", message: "The bench routes take the dev token" } }, 401);
  await next();
});

/** The LWIR of a shape, for clients that start runs themselves. */
benchRoutes.post("/bench/lwir", async (c) => {
  const { shape } = await c.req.json<{ shape: LwirShape }>();
  return c.json(await benchLwir(shape));
});

/**
 * Starts one run — of an LWIR `shape` through `POST /v1/lwir/runs` (no planner), or of a
 * registered workflow through `POST /v1/workflows/:id/runs` — with the real routes called
 * in-process, and waits for its end on the run object. `engineMs` runs from just before the
 * request to the terminal event's timestamp, written inside the object.
 */
benchRoutes.post("/bench/run", async (c) => {
  const body = await c.req.json<{ shape?: LwirShape; workflowId?: string; input: unknown; runId?: string }>();
  let path: string;
  let payload: Record<string, unknown>;
  if (body.shape) {
    path = "/v1/lwir/runs";
    payload = { lwir: (await benchLwir(body.shape)).lwir, input: body.input, ...(body.runId ? { runId: body.runId } : {}) };
  } else if (body.workflowId) {
    path = `/v1/workflows/${encodeURIComponent(body.workflowId)}/runs`;
    payload = { input: body.input };
  } else return c.json({ error: { code: "invalid_request", message: "Give a shape or a workflowId" } }, 400);
  const calls = { ...modelCalls };
  const t0 = Date.now();
  const res = await app.fetch(
    new Request(new URL(path, c.req.url), {
      method: "POST",
      headers: { authorization: `Bearer ${c.env.LITTLE_DEV_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify(payload),
    }),
    c.env,
    c.executionCtx,
  );
  const started = (await res.json()) as { run?: { runId: string }; error?: unknown };
  // The run did not start: pass the API's own answer on (a 4xx with its code), never a 500.
  if (!started.run) return c.json({ error: started.error ?? { code: "bench_start_failed", message: `HTTP ${res.status}` } }, 502);
  const ackMs = Date.now() - t0;
  const runId = started.run.runId;
  const client = runClient(c.env.RUNS, TENANT, runId);
  let view = await client.waitForEnd(RUN_TIMEOUT_MS);
  while (!ENDED.has(view.status) && Date.now() - t0 < RUN_TIMEOUT_MS) view = await client.waitForEnd(RUN_TIMEOUT_MS);
  const wallMs = Date.now() - t0;
  const [first] = await client.events({ after: 0, limit: 1 });
  const [last] = await client.events({ after: view.eventCount - 1, limit: 1 });
  return c.json({
    runId,
    status: view.status,
    cause: view.cause ?? null,
    versionId: view.versionId ?? null,
    ackMs,
    wallMs,
    engineMs: (last?.at ?? t0) - t0,
    inObjectMs: (last?.at ?? 0) - (first?.at ?? 0),
    modelCalls: modelCalls.total - calls.total,
    plannerCalls: modelCalls.planner - calls.planner,
    inputTokens: modelCalls.inputTokens - calls.inputTokens,
    outputTokens: modelCalls.outputTokens - calls.outputTokens,
    eventCount: view.eventCount,
    output: view.output ?? null,
  });
});

/** A child-call run's step time and its child's own time, from the two logs (bench/child-overhead.ts). */
benchRoutes.post("/bench/child-times", async (c) => {
  const { runId } = await c.req.json<{ runId: string }>();
  const parent = runClient(c.env.RUNS, TENANT, runId);
  const events = await parent.events({ limit: 1_000 });
  const started = events.find((e) => e.type === "StepStarted");
  const succeeded = events.find((e) => e.type === "StepSucceeded");
  const childRunId = (events.find((e) => e.type === "ChildRunStarted")?.payload as { childRunId?: string } | undefined)?.childRunId;
  if (!started || !succeeded || !childRunId) return c.json({ error: { code: "bench_not_a_child_call", message: runId } }, 400);
  const child = await runClient(c.env.RUNS, TENANT, childRunId).events({ limit: 1_000 });
  const at = (type: string) => events.find((e) => e.type === type)?.at ?? Number.NaN;
  const childStart = child[0]?.at ?? Number.NaN;
  const childEnd = child.at(-1)?.at ?? Number.NaN;
  return c.json({
    status: (await parent.status()).status,
    stepMs: succeeded.at - started.at,
    childMs: childEnd - childStart,
    // Where the overhead goes: recording and starting the child, telling the parent, the parent's next slice.
    breakdown: {
      stepToRecorded: at("ChildRunStarted") - started.at,
      recordedToChildRequest: childStart - at("ChildRunStarted"),
      childEndToParentRecorded: at("ChildRunEnded") - childEnd,
      parentRecordedToStepDone: succeeded.at - at("ChildRunEnded"),
    },
  });
});

/**
 * Where one acknowledgement's time goes, in-process: the run object's `start` alone (alarm, append
 * + sync, run index write, status), then the whole `POST /v1/lwir/runs` for a second run, then
 * each D1 statement of the start path, the object's `status` RPC, and the first RPC to a new object. (The
 * route's pure CPU parts — LWIR validation and binding — cannot be timed apart here: workerd's
 * clocks advance only across I/O.)
 */
benchRoutes.post("/bench/ack-breakdown", async (c) => {
  const { shape } = await c.req.json<{ shape: LwirShape }>();
  const { workflowId, lwir } = await benchLwir(shape);
  const services = wire(c.env);
  const registered = services.workflows.get(workflowId) as RegisteredWorkflow;
  const hash = (await capabilitiesOf(registered)).definitionHash;
  const runId = `run_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`;
  const client = runClient(c.env.RUNS, TENANT, runId);
  const t0 = performance.now();
  await client.start({ runId, workflowId, input: {}, trigger: { kind: "lwir" }, tenant: TENANT, placement: {}, lwir });
  const t1 = performance.now();
  const res = await app.fetch(
    new Request(new URL("/v1/lwir/runs", c.req.url), {
      method: "POST",
      headers: { authorization: `Bearer ${c.env.LITTLE_DEV_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ lwir, input: {} }),
    }),
    c.env,
    c.executionCtx,
  );
  await res.arrayBuffer();
  const t2 = performance.now();
  // The start path's I/O one at a time, as the route does them (each the same statement on the same
  // rows; the index row is the first run's own). The start quotas are no longer on it: the run's
  // tenant gates are passed by its alarm, after the ack.
  await services.approvals.get(TENANT, hash);
  const t3 = performance.now();
  const row = await services.runs.get(TENANT, runId);
  const t6 = performance.now();
  if (row) await services.runs.upsert(row);
  const t7 = performance.now();
  await client.status();
  const t8 = performance.now();
  // A run object no run has used: its first RPC creates the object and its SQLite database.
  await runClient(c.env.RUNS, TENANT, `bench_fresh_${crypto.randomUUID()}`).status();
  const t9 = performance.now();
  return c.json({
    objectStartMs: t1 - t0,
    routeMs: t2 - t1,
    approvalReadMs: t3 - t2,
    indexReadMs: t6 - t3,
    indexUpsertMs: t7 - t6,
    objectStatusMs: t8 - t7,
    freshObjectMs: t9 - t8,
  });
});

/** One instance of the peer chain, timed from `create()` to its last step's return. */
benchRoutes.post("/bench/peer", async (c) => {
  const { steps } = await c.req.json<{ steps: number }>();
  const t0 = Date.now();
  const instance = await c.env.BENCH_CHAIN.create({ params: { steps } });
  const createdMs = Date.now() - t0;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, PEER_POLL_MS));
    const status = await instance.status();
    if (status.status === "complete") {
      const out = status.output as PeerChainOutput;
      return c.json({ steps, createdMs, firstLineMs: out.startedAt - t0, engineMs: out.endedAt - t0, wallMs: Date.now() - t0 });
    }
    if (status.status === "errored" || status.status === "terminated" || Date.now() - t0 > RUN_TIMEOUT_MS)
      return c.json({ error: { code: "bench_peer_failed", message: `peer instance ${instance.id} is ${status.status}` } }, 502);
  }
});

/** The peer's trigger: creates one instance of a one-step chain and answers at once (trigger throughput). */
benchRoutes.post("/bench/peer-trigger", async (c) => {
  const instance = await c.env.BENCH_CHAIN.create({ params: { steps: 1 } });
  return c.json({ id: instance.id }, 202);
});

/** A peer instance's status. */
benchRoutes.get("/bench/peer-status/:id", async (c) => {
  const status = await (await c.env.BENCH_CHAIN.get(c.req.param("id"))).status();
  return c.json({ status: status.status });
});

/** Replays a finished run of the dev tenant from its log, without its terminal event, in a fresh object. */
benchRoutes.post("/bench/replay", async (c) => {
  const { runId } = await c.req.json<{ runId: string }>();
  const client = runClient(c.env.RUNS, TENANT, runId);
  const events: RunEvent[] = [];
  for (let after = 0; ; ) {
    const page = await client.events({ after, limit: 1_000 });
    events.push(...page);
    if (page.length < 1_000) break;
    after = page.at(-1)?.seq ?? after;
  }
  const original = await client.status();
  const stub = c.env.BENCH_RUNS.get(c.env.BENCH_RUNS.idFromName(`${TENANT}:${runId}:${crypto.randomUUID()}`)) as unknown as {
    replayFrom(runId: string, tenant: string, events: readonly RunEvent[]): Promise<ReplayResult>;
  };
  const result = await stub.replayFrom(runId, TENANT, events);
  return c.json({ ...result, sameOutput: JSON.stringify(result.output) === JSON.stringify(original.output) });
});

type AppendDoors = {
  appendThroughput(count: number, batch: number, writers: number, groupCommit: boolean, checkpoint: boolean): Promise<AppendResult>;
  insertFloor(count: number, sync: boolean): Promise<AppendResult>;
};

/** Append throughput of the run's event log adapter inside a fresh object (or, with `floor`, raw inserts). */
benchRoutes.post("/bench/append", async (c) => {
  const { count, batch, writers, floor, groupCommit, checkpoint } = await c.req.json<{
    count: number;
    batch?: number;
    writers?: number;
    floor?: "sync" | "nosync";
    groupCommit?: boolean;
    checkpoint?: boolean;
  }>();
  const stub = c.env.BENCH_RUNS.get(c.env.BENCH_RUNS.idFromName(`append:${crypto.randomUUID()}`)) as unknown as AppendDoors;
  if (floor) return c.json(await stub.insertFloor(count, floor === "sync"));
  return c.json(await stub.appendThroughput(count, batch ?? 1, writers ?? 1, groupCommit === true, checkpoint === true));
});

type LongRunDoors = {
  fillLog(runId: string, tenant: string, count: number, batch: number): Promise<FillResult>;
  readWholeLog(runId: string): Promise<{ events: number }>;
};

/**
 * A long run at rest in a bench run object: `count` more events appended through the run's own
 * log (`BenchRunObject.fillLog`; a new run, indexed for the dev tenant, without `runId`). Read it
 * over the API under `/bench/long-runs/v1/…`.
 */
benchRoutes.post("/bench/long-runs", async (c) => {
  const body = await c.req.json<{ runId?: string; count: number; batch?: number }>();
  const runId = body.runId ?? `run_long_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`;
  const stub = runObjectStub(c.env.BENCH_RUNS, TENANT, runId) as unknown as LongRunDoors;
  return c.json({ runId, ...(await stub.fillLog(runId, TENANT, body.count, body.batch ?? 100)) });
});

/** The whole log of a long run read at once inside its object (what `status()` did before checkpoints). */
benchRoutes.post("/bench/long-runs/:runId/read-all", async (c) => {
  const runId = c.req.param("runId");
  return c.json(await (runObjectStub(c.env.BENCH_RUNS, TENANT, runId) as unknown as LongRunDoors).readWholeLog(runId));
});

/** The bench env with the API's run objects in `BENCH_RUNS`, one per isolate (the wiring is built once per env). */
const longRunEnvs = new WeakMap<BenchEnv, BenchEnv>();

/**
 * The production API (`src/api/app.ts`, unchanged: auth, the D1 index lookup, the run object's
 * RPC) over the bench run objects: `/bench/long-runs/v1/runs/:id` is `GET /v1/runs/:id` of a run
 * made by `POST /bench/long-runs`. Only the namespace differs (a `BenchRunObject` is a
 * `RunObject`; the bench-only door lives in a class the production Worker does not bind).
 */
benchRoutes.get("/bench/long-runs/v1/*", async (c) => {
  const url = new URL(c.req.url);
  url.pathname = url.pathname.slice("/bench/long-runs".length);
  let env = longRunEnvs.get(c.env);
  if (!env) {
    env = { ...c.env, RUNS: c.env.BENCH_RUNS as unknown as BenchEnv["RUNS"] };
    longRunEnvs.set(c.env, env);
  }
  return app.fetch(new Request(url, c.req.raw), env, c.executionCtx);
});

/** One run of `shape` driven by the engine alone in a fresh bench object, with or without syncs. */
benchRoutes.post("/bench/drive", async (c) => {
  const { shape, input, log } = await c.req.json<{ shape: LwirShape; input: unknown; log: "synced" | "unsynced" }>();
  const { workflowId, lwir } = await benchLwir(shape);
  const runId = `run_bench_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`;
  const stub = c.env.BENCH_RUNS.get(c.env.BENCH_RUNS.idFromName(`drive:${runId}`)) as unknown as {
    driveWith(runId: string, workflowId: string, lwir: unknown, input: unknown, log: "synced" | "unsynced"): Promise<DriveResult>;
  };
  return c.json(await stub.driveWith(runId, workflowId, lwir, input, log));
});

/** Model calls made in this isolate so far, by role, with their tokens. */
benchRoutes.get("/bench/model-calls", (c) => c.json(modelCalls));
