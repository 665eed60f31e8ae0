/**
 * The flow-control scenario's bench route (bench/flow-control.ts): one key's limiter asked in a
 * loop from inside the process (an admission and a release per run), so the figure is the
 * limiter's, not the HTTP client's.
 */
import { Hono } from "hono";
import { runClient } from "../../src/adapters/cloudflare/run-client.ts";
import { app } from "../../src/api/app.ts";
import type { FlowGate } from "../../src/ports/flow-limiter.ts";
import { wire } from "../../src/wiring.ts";
import type { BenchEnv } from "./routes.ts";

export const flowRoutes = new Hono<{ Bindings: BenchEnv }>();

flowRoutes.use("/bench/flow/*", async (c, next) => {
  if (c.req.header("authorization") !== `Bearer ${c.env.LITTLE_DEV_TOKEN}`)
    return c.json({ error: { code: "unauthorized", message: "The bench routes take the dev token" } }, 401);
  await next();
});

/**
 * For `ms`, `clients` loops each admit a new run id at one key (limit `limit`) and release it:
 * admissions per second, and the median round trip of one admission.
 */
flowRoutes.post("/bench/flow/admissions", async (c) => {
  const { ms, clients, limit } = await c.req.json<{ ms: number; clients: number; limit: number }>();
  const { flow } = wire(c.env);
  const key = crypto.randomUUID();
  const gate: FlowGate = { kind: "concurrency", index: 0, key, limit };
  let admitted = 0;
  let queued = 0;
  const rtts: number[] = [];
  const started = Date.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, w) => {
      for (let i = 0; Date.now() - started < ms; i++) {
        const ticket = { tenant: "bench", workflowId: "bench.flow-admissions", runId: `r${w}_${i}` };
        const t0 = Date.now();
        const answer = await flow.acquire(ticket, gate, 60_000);
        rtts.push(Date.now() - t0);
        if (answer.admitted) admitted++;
        else queued++;
        await flow.release(ticket, gate);
      }
    }),
  );
  rtts.sort((a, b) => a - b);
  return c.json({ admitted, queued, elapsedMs: Date.now() - started, medianAcquireMs: rtts[Math.floor(rtts.length / 2)] ?? null });
});

/**
 * The ack's gap inside the process: `n` starts of each given LWIR (`plain`: no flow control;
 * `gated`: a free concurrency slot), alternated, each timed through the API app (no HTTP client, no
 * `wrangler dev` proxy), and `n` lone admissions at a warm key: where a gated ack's extra time goes.
 */
flowRoutes.post("/bench/flow/ack-breakdown", async (c) => {
  const { n, plain, gated } = await c.req.json<{ n: number; plain: unknown; gated: unknown }>();
  const start = async (lwir: unknown) => {
    const t0 = performance.now();
    const res = await app.fetch(
      new Request(new URL("/v1/lwir/runs", c.req.url), {
        method: "POST",
        headers: { authorization: `Bearer ${c.env.LITTLE_DEV_TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify({ lwir, input: { items: [0] } }),
      }),
      c.env,
      c.executionCtx,
    );
    await res.arrayBuffer();
    return performance.now() - t0;
  };
  const { flow } = wire(c.env);
  const gate: FlowGate = { kind: "concurrency", index: 0, key: crypto.randomUUID(), limit: 1_000_000 };
  // The run object's `start` alone, called as the start service calls it (with the gate rendered, or none).
  const objectStart = async (lwir: unknown, gates: FlowGate[]) => {
    const runId = `run_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`;
    const workflowId = (lwir as { metadata: { name: string } }).metadata.name;
    const t0 = performance.now();
    await runClient(c.env.RUNS, "dev", runId).start({
      runId,
      workflowId,
      input: { items: [0] },
      trigger: { kind: "lwir" },
      tenant: "dev",
      placement: {},
      lwir,
      ...(gates.length > 0 ? { flow: gates } : {}),
    });
    return performance.now() - t0;
  };
  const times = {
    plain: [] as number[],
    gated: [] as number[],
    admission: [] as number[],
    objectPlain: [] as number[],
    objectGated: [] as number[],
  };
  for (let i = 0; i < n; i++) {
    // Each start on a quiet isolate (the run it acks is driven just after it: see bench/flow-control.ts).
    const settle = () => new Promise((done) => setTimeout(done, 150));
    times.plain.push(await start(plain));
    await settle();
    times.gated.push(await start(gated));
    await settle();
    times.objectPlain.push(await objectStart(plain, []));
    await settle();
    times.objectGated.push(await objectStart(gated, [{ ...gate, key: `${gate.key}-runs` }]));
    await settle();
    const ticket = { tenant: "bench", workflowId: "bench.flow-admissions", runId: `ack_${i}` };
    const t0 = performance.now();
    await flow.acquire(ticket, gate, 60_000);
    times.admission.push(performance.now() - t0);
    await flow.release(ticket, gate);
    await settle();
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? null;
  return c.json({
    plainMs: median(times.plain),
    gatedMs: median(times.gated),
    objectPlainMs: median(times.objectPlain),
    objectGatedMs: median(times.objectGated),
    admissionMs: median(times.admission),
    times,
  });
});
