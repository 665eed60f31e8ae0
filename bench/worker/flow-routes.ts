/**
 * The flow-control scenario's bench route (bench/flow-control.ts): one key's limiter asked in a
 * loop from inside the process (an admission and a release per run), so the figure is the
 * limiter's, not the HTTP client's.
 */
import { Hono } from "hono";
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
