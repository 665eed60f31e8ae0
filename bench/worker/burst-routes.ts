/**
 * The burst scenario's bench route (bench/burst.ts): how many peer instances have ended, and when,
 * read in one request inside the process — a status read per instance over HTTP, a thousand at a
 * time, would load the cores whose drain is being measured.
 */
import { Hono } from "hono";
import type { PeerChainOutput } from "./peer-chain.ts";
import type { BenchEnv } from "./routes.ts";

export const burstRoutes = new Hono<{ Bindings: BenchEnv }>();

burstRoutes.use("/bench/burst/*", async (c, next) => {
  if (c.req.header("authorization") !== `Bearer ${c.env.LITTLE_DEV_TOKEN}`)
    return c.json({ error: { code: "unauthorized", message: "The bench routes take the dev token" } }, 401);
  await next();
});

/**
 * Each instance's status and, once complete, the time its last step returned (the peer's own
 * stamp, `PeerChainOutput.endedAt`); `not_found` when `get()` finds no instance.
 */
burstRoutes.post("/bench/burst/peer-ends", async (c) => {
  const { ids } = await c.req.json<{ ids: string[] }>();
  const ends = await Promise.all(
    ids.map(async (id) => {
      try {
        const status = await (await c.env.BENCH_CHAIN.get(id)).status();
        const output = status.status === "complete" ? (status.output as PeerChainOutput | undefined) : undefined;
        return { id, status: status.status as string, endedAt: output?.endedAt ?? null };
      } catch {
        return { id, status: "not_found", endedAt: null };
      }
    }),
  );
  return c.json({ ends });
});
