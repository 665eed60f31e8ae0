/**
 * Scenario — the container sandbox against the isolate sandbox, cold and warm, per bash call and
 * per code.run (issue 33, item 4). Both adapters run in one test-only Worker under `wrangler dev`
 * with containers (test/adapters/sandbox-container/support/contract-worker.ts), driven the same way
 * from here, so both figures carry the same HTTP hop. Cold: a new run's (scope's) first call, which
 * for the container sandbox starts a container; warm: that run's later calls. Needs Docker and the
 * environment `npm run test:containers -- --bench` sets up (scripts/test-containers.sh); left out of
 * the default `npm run bench` when no Docker engine answers.
 */
import { MemoryMemoryStore } from "../src/adapters/memory/memory-memory-store.ts";
import { digestText } from "../src/json/digest.ts";
import type { RunCodeRequest } from "../src/ports/sandbox.ts";
import { containerRunUnavailable, startContractWorker } from "../test/adapters/sandbox-container/support/contract-dev.ts";
import type { BoxKind } from "../test/adapters/sandbox-container/support/contract-worker.ts";
import { RemoteSandbox } from "../test/adapters/sandbox-container/support/remote-sandbox.ts";
import type { Row } from "./support/results.ts";
import { runAlone, type Scenario } from "./support/scenario.ts";
import { cell, summarize } from "./support/stats.ts";

const WARM_CALLS = 10;
const SOURCE = "export function run({ input }) { return input + 1; }";
const CODE: RunCodeRequest = {
  files: { "m.js": { content: SOURCE, sha256: digestText(SOURCE) } },
  entrypoint: "m.js",
  input: 1,
  policy: { network: "deny", env: "deny", fs: "deny" },
};

type Figures = { coldBash: number[]; warmBash: number[]; coldCode: number[]; warmCode: number[] };

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** One repetition for one adapter: a fresh run's first bash and code.run, then its warm calls. */
async function measure(url: string, kind: BoxKind, into: Figures): Promise<void> {
  const session = await new RemoteSandbox(url, new MemoryMemoryStore(), kind).openSession({ sessionId: "bench", skills: [] });
  into.coldBash.push(await timed(() => session.exec("true")));
  for (let i = 0; i < WARM_CALLS; i++) into.warmBash.push(await timed(() => session.exec("true")));
  const code = new RemoteSandbox(url, new MemoryMemoryStore(), kind);
  into.coldCode.push(
    await timed(async () => {
      const r = await code.runCode(CODE);
      if (!r.ok) throw new Error(`code.run failed: ${r.error.code}: ${r.error.message}`);
    }),
  );
  for (let i = 0; i < WARM_CALLS; i++) into.warmCode.push(await timed(() => code.runCode(CODE)));
}

const empty = (): Figures => ({ coldBash: [], warmBash: [], coldCode: [], warmCode: [] });

export const containerSandbox: Scenario = {
  id: "container-sandbox",
  title: "Container sandbox vs isolate sandbox: a run's first (cold) and later (warm) bash call and code.run",
  async run(ctx) {
    const unavailable = await containerRunUnavailable();
    if (unavailable) throw new Error(`needs real containers: ${unavailable} (run it with npm run test:containers -- --bench)`);
    const dev = await startContractWorker();
    try {
      const container = empty();
      const isolate = empty();
      // One untimed round each: the image's first container start and the first isolate load.
      await measure(dev.url, "container", empty());
      await measure(dev.url, "isolate", empty());
      for (let i = 0; i < ctx.reps; i++) {
        await measure(dev.url, "container", container);
        await measure(dev.url, "isolate", isolate);
        ctx.log(
          `rep ${i + 1}: container cold bash ${container.coldBash.at(-1)?.toFixed(0)} ms, cold code.run ${container.coldCode.at(-1)?.toFixed(0)} ms; isolate cold bash ${isolate.coldBash.at(-1)?.toFixed(0)} ms, cold code.run ${isolate.coldCode.at(-1)?.toFixed(0)} ms`,
        );
      }
      const row = (figure: string, pick: (f: Figures) => number[], target?: { ms: number; text: string }): Row => {
        const ours = summarize(pick(container));
        const peer = summarize(pick(isolate));
        return {
          figure,
          ours: cell(ours, 1),
          peer: cell(peer, 1),
          ratio: `${(ours.median / peer.median).toFixed(1)}x`,
          ...(target ? { target: target.text, met: ours.median <= target.ms } : {}),
        };
      };
      const rows: Row[] = [
        row("bash, a run's first call (container: starts its container), ms", (f) => f.coldBash, {
          ms: 1_000,
          text: "≤ 1000 (first container ready)",
        }),
        row("bash, a later call of the same session, ms", (f) => f.warmBash),
        row("code.run, a run's first call (container: starts its code container), ms", (f) => f.coldCode),
        row("code.run, a later call of the same run, ms", (f) => f.warmCode, { ms: 100, text: "≤ 100" }),
      ];
      return {
        repetitions: ctx.reps,
        rows,
        notes: [
          "ours = the container sandbox (wrangler dev with Docker, our sidecar, the lab's stand-in base image), peer = the isolate sandbox in the same Worker; both timed from Node over one local HTTP hop.",
          `${WARM_CALLS} warm calls per repetition each; bash runs \`true\`, code.run a one-line run({ input }).`,
        ],
        raw: { container, isolate },
      };
    } finally {
      await dev.stop();
    }
  },
};

await runAlone(containerSandbox, import.meta.main);
