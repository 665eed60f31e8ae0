/**
 * The global-latency scenario's bench routes: `POST /bench/d1 { ms }` sets the far database's
 * delay per round trip (0 turns it off) and answers the round trips counted so far outside any
 * Worker request (the run objects' own).
 */
import { Hono } from "hono";
import { delay } from "./delayed-d1.ts";
import type { BenchEnv } from "./routes.ts";

export const latencyRoutes = new Hono<{ Bindings: BenchEnv }>();

latencyRoutes.post("/bench/d1", async (c) => {
  if (c.req.header("authorization") !== `Bearer ${c.env.LITTLE_DEV_TOKEN}`)
    return c.json({ error: { code: "unauthorized", message: "The bench routes take the dev token" } }, 401);
  const { ms } = await c.req.json<{ ms: number }>();
  if (!Number.isFinite(ms) || ms < 0) return c.json({ error: { code: "bench_d1_delay_invalid", message: "ms: a number ≥ 0" } }, 400);
  delay.ms = ms;
  return c.json({ ms: delay.ms, unattributed: delay.unattributed });
});
