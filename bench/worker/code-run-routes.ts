/**
 * The code-run scenario's bench route (bench/code-run.ts): code.run latency in the real Worker
 * Loader, timed inside the process. `cold` calls load an isolate each (a run's first call of a
 * code since issue 24: warm isolates serve one run only); `warm` calls reuse one run's isolate;
 * `concurrent` calls of one run each take a slot of their own (warm-isolate-slots.ts).
 */
import { Hono } from "hono";
import { IsolateSandbox } from "../../src/adapters/sandbox-isolate/isolate-sandbox.ts";
import { digestText } from "../../src/json/digest.ts";
import type { RunCodeRequest, Sandbox } from "../../src/ports/sandbox.ts";
import type { BenchEnv } from "./routes.ts";

export const codeRunRoutes = new Hono<{ Bindings: BenchEnv }>();

codeRunRoutes.use("/bench/code-run/*", async (c, next) => {
  if (c.req.header("authorization") !== `Bearer ${c.env.LITTLE_DEV_TOKEN}`)
    return c.json({ error: { code: "unauthorized", message: "The bench routes take the dev token" } }, 401);
  await next();
});

// A small planner-style file: parse, compute, answer JSON (about what a scoring step does).
const SCORE = `export function run({ input }) {
  const words = String(input.text).split(/\\s+/).filter(Boolean);
  let score = 0;
  for (const w of words) score += w.length % 7;
  return { words: words.length, score };
}
`;

function request(n: number): RunCodeRequest {
  return {
    files: { "score.js": { content: SCORE, sha256: digestText(SCORE) } },
    entrypoint: "score.js",
    input: { text: `call ${n} of the code-run bench with a few words to score` },
    policy: { network: "deny", env: "deny", fs: "deny" },
  };
}

async function timed(sandbox: Sandbox, n: number): Promise<number> {
  const t0 = performance.now();
  const r = await sandbox.runCode(request(n));
  const ms = performance.now() - t0;
  if (!r.ok) throw new Error(`code.run failed: ${r.error.code}: ${r.error.message}`);
  return ms;
}

/** The sandbox of one run; before issue 24 (`BENCH_REF`) there were no scopes: every run shared one. */
type Scoped = IsolateSandbox & { forScope?: (scope: string) => Sandbox; heldIsolates?: number };
const runOf = (sandbox: Scoped, scope: string): Sandbox => (typeof sandbox.forScope === "function" ? sandbox.forScope(scope) : sandbox);

/**
 * `{ calls }` each of: a new run's first call (`cold` since issue 24; before it, warm once any run
 * had loaded the code), later calls of one run (`warm`), and `width` concurrent calls of one run.
 */
codeRunRoutes.post("/bench/code-run/latency", async (c) => {
  const { calls, width } = await c.req.json<{ calls: number; width: number }>();
  const sandbox: Scoped = new IsolateSandbox({ loader: c.env.LOADER });
  const cold: number[] = [];
  for (let i = 0; i < calls; i++) cold.push(await timed(runOf(sandbox, `bench:cold-${crypto.randomUUID()}`), i));
  const run = runOf(sandbox, `bench:warm-${crypto.randomUUID()}`);
  await timed(run, -1);
  const warm: number[] = [];
  for (let i = 0; i < calls; i++) warm.push(await timed(run, i));
  // Concurrent calls of one run: the first round loads the extra slots, later rounds find them warm.
  const wide = runOf(sandbox, `bench:wide-${crypto.randomUUID()}`);
  const rounds: number[][] = [];
  for (let round = 0; round < 3; round++) {
    const t0 = performance.now();
    const each = await Promise.all(Array.from({ length: width }, (_, i) => timed(wide, i)));
    rounds.push([performance.now() - t0, ...each]);
  }
  return c.json({ cold, warm, rounds, held: sandbox.heldIsolates ?? 0 });
});

/** `runs` first calls, each of another run (a cold isolate each since issue 24): what the loader keeps of them is read from outside. */
codeRunRoutes.post("/bench/code-run/many-runs", async (c) => {
  const { runs } = await c.req.json<{ runs: number }>();
  const sandbox: Scoped = new IsolateSandbox({ loader: c.env.LOADER });
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) await timed(runOf(sandbox, `bench:many-${crypto.randomUUID()}`), i);
  return c.json({ ms: performance.now() - t0 });
});
