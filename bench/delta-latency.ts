/**
 * Scenario — live model output's latency (issue 30): from the moment the provider writes a text
 * chunk to the moment the client holds its delta. A bench `wrangler dev` of the Worker as deployed
 * (`wrangler.toml`, `LITTLE_MODELS=live`) calls the fake OpenAI Responses server on loopback
 * (test/e2e/support/fake-provider.ts), which streams the worker step's answer in 50 chunks 20 ms
 * apart and stamps each; the typed client's `streamRun` stamps each delta as it arrives (same
 * machine, same clock). Latency per chunk = arrival − write, median over every chunk of every rep.
 * Target: ≤ 50 ms median under `wrangler dev`.
 */

import { type FakeProvider, startFakeProvider } from "../test/e2e/support/fake-provider.ts";
import { deltasOf, longSummary, pacedJsonTurn, readRunStream } from "../test/e2e/support/live-output.ts";
import { bashTurn, submitTurn, WORKER_SLOT } from "../test/e2e/support/live-provider-runs.ts";
import { type BenchDev, startBenchDev } from "./support/bench-dev.ts";
import type { Row } from "./support/results.ts";
import { runAlone, type Scenario } from "./support/scenario.ts";
import { cell, percentile, summarize } from "./support/stats.ts";

const CHUNKS = 50;
const CHUNK_DELAY_MS = 20;
const SEED_WORKFLOW = "support.summarize-ticket";

/** One run: the latency of each of its worker's 50 chunks, in ms. */
async function oneRun(dev: BenchDev, fake: FakeProvider, rep: number): Promise<number[]> {
  fake.enqueue("gpt-5", bashTurn, submitTurn);
  fake.enqueue(WORKER_SLOT, pacedJsonTurn(longSummary(`bench-${rep}`), CHUNKS, CHUNK_DELAY_MS));
  const since = fake.requests.length;
  const res = await fetch(`${dev.url}/v1/workflows/${SEED_WORKFLOW}/runs`, {
    method: "POST",
    headers: { authorization: `Bearer ${dev.devToken}`, "content-type": "application/json" },
    body: JSON.stringify({ input: { ticketId: `B-${rep}`, transcript: "The dashboard shows a 500 error since the upgrade." } }),
  });
  const { run } = (await res.json()) as { run: { runId: string } };
  const items = await readRunStream(dev.url, dev.devToken, run.runId);
  const worker = fake.requests.slice(since).find((r) => r.model === WORKER_SLOT);
  const deltas = deltasOf(items).filter((d) => d.role === "worker" && d.channel === "text");
  if (!worker || deltas.length !== CHUNKS || worker.chunkSentAt.length !== CHUNKS)
    throw new Error(`rep ${rep}: ${deltas.length} deltas for ${worker?.chunkSentAt.length ?? 0} chunks (want ${CHUNKS} each)`);
  return deltas.map((d, i) => d.receivedAt - (worker.chunkSentAt[i] as number));
}

export const deltaLatency: Scenario = {
  id: "delta-latency",
  title: "Live model output: provider chunk to client, under wrangler dev",
  async run(ctx) {
    const fake = await startFakeProvider();
    const dev = await startBenchDev({
      config: "production",
      vars: { LITTLE_MODELS: "live", OPENAI_API_KEY: "sk-bench", OPENAI_BASE_URL: `${fake.url}/v1` },
    });
    try {
      await oneRun(dev, fake, 0); // untimed first use
      const perRep: number[][] = [];
      for (let rep = 1; rep <= ctx.reps; rep++) {
        perRep.push(await oneRun(dev, fake, rep));
        const s = summarize(perRep.at(-1) as number[]);
        ctx.log(`rep ${rep}: median ${s.median.toFixed(1)} ms (min ${s.min.toFixed(1)}, max ${s.max.toFixed(1)})`);
      }
      const all = perRep.flat();
      const medians = summarize(perRep.map((latencies) => summarize(latencies).median));
      const overall = summarize(all);
      const rows: Row[] = [
        {
          figure: `ms from a provider chunk to the client's delta (${CHUNKS} chunks ${CHUNK_DELAY_MS} ms apart per run), median of all chunks`,
          ours: `${overall.median.toFixed(1)} (p95 ${percentile(all, 95).toFixed(1)}, n ${all.length})`,
          target: "≤ 50 ms",
          met: overall.median <= 50,
        },
        { figure: "median per run", ours: cell(medians, 1) },
      ];
      return { repetitions: ctx.reps, rows, notes: [], raw: { latencies: perRep } };
    } finally {
      await dev.dispose();
      await fake.close();
    }
  },
};

await runAlone(deltaLatency, import.meta.main);
