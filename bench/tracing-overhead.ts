/**
 * Scenario — the cost of tracing (issue 30): the same no-op chains and the same trigger window on
 * two bench `wrangler dev`s in the same run, one with `LITTLE_OTLP_ENDPOINT` pointing at a local
 * OTLP receiver (a Node server on loopback that takes each request whole and answers 200) and one
 * with tracing off. Per step = (T(100) − T(1)) / 99 inside the Worker, as in step-overhead; runs
 * accepted per second from 16 concurrent clients over 5 s, as in trigger-throughput. Target: with
 * tracing at most 10% slower. The two are measured in alternation, never at once.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type BenchClient, type BenchRun, benchClient } from "./support/bench-client.ts";
import { startBenchDev } from "./support/bench-dev.ts";
import type { Row } from "./support/results.ts";
import { completion, noopLwir, ourStatus, startOurs } from "./support/run-starts.ts";
import { runAlone, type Scenario } from "./support/scenario.ts";
import { cell, summarize } from "./support/stats.ts";

const STEPS = 100;
const WINDOW_MS = 5_000;
const CLIENTS = 16;

async function receiver() {
  const seen = { requests: 0, bytes: 0 };
  const server = createServer((req, res) => {
    req.on("data", (c: Buffer) => {
      seen.bytes += c.length;
    });
    req.on("end", () => {
      seen.requests++;
      res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { seen, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

async function perStep(api: BenchClient): Promise<number> {
  const run = async (n: number) => {
    const r = await api.ok<BenchRun>("POST", "/bench/run", { shape: { kind: "noop-chain", n }, input: {} });
    if (r.status !== "completed") throw new Error(`no-op chain ${r.runId} ended ${r.status}`);
    return r.engineMs;
  };
  const t100 = await run(STEPS);
  const t1 = await run(1);
  return (t100 - t1) / (STEPS - 1);
}

async function throughput(api: BenchClient): Promise<number> {
  const start = startOurs(api, await noopLwir(api));
  const accepted: string[] = [];
  const began = performance.now();
  const until = began + WINDOW_MS;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < until) {
        const r = await start().catch(() => null);
        if (r?.id) accepted.push(r.id);
      }
    }),
  );
  const rate = (accepted.length / (performance.now() - began)) * 1_000;
  await completion(accepted, ourStatus(api));
  return rate;
}

export const tracingOverhead: Scenario = {
  id: "tracing-overhead",
  title: "Tracing on (OTLP to a local receiver) vs off: per-step overhead and trigger throughput",
  async run(ctx) {
    const sink = await receiver();
    const off = await ctx.client();
    const onDev = await startBenchDev({ vars: { LITTLE_OTLP_ENDPOINT: sink.url } });
    try {
      const on = benchClient(onDev.url, onDev.devToken);
      // Untimed first use on both.
      await perStep(off);
      await perStep(on);
      const raw = { offStep: [] as number[], onStep: [] as number[], offRate: [] as number[], onRate: [] as number[] };
      for (let i = 0; i < ctx.reps; i++) {
        raw.offStep.push(await perStep(off));
        raw.onStep.push(await perStep(on));
        ctx.log(`rep ${i + 1}: per step off ${raw.offStep.at(-1)?.toFixed(2)} ms, on ${raw.onStep.at(-1)?.toFixed(2)} ms`);
      }
      for (let i = 0; i < Math.min(ctx.reps, 2); i++) {
        raw.offRate.push(await throughput(off));
        raw.onRate.push(await throughput(on));
        ctx.log(`window ${i + 1}: off ${raw.offRate.at(-1)?.toFixed(1)}/s, on ${raw.onRate.at(-1)?.toFixed(1)}/s`);
      }
      const step = { off: summarize(raw.offStep), on: summarize(raw.onStep) };
      const rate = { off: summarize(raw.offRate), on: summarize(raw.onRate) };
      const slower = step.on.median / step.off.median - 1;
      const fewer = 1 - rate.on.median / rate.off.median;
      const rows: Row[] = [
        {
          figure: "ms per step, (T(100) − T(1)) / 99: tracing on / off",
          ours: `${cell(step.on, 2)} / ${cell(step.off, 2)}`,
          ratio: `${(slower * 100).toFixed(1)}% slower`,
          target: "≤ 10% slower",
          met: slower <= 0.1,
        },
        {
          figure: `runs accepted per second (${CLIENTS} clients, ${WINDOW_MS / 1_000} s): tracing on / off`,
          ours: `${cell(rate.on, 1)} / ${cell(rate.off, 1)}`,
          ratio: `${(fewer * 100).toFixed(1)}% fewer`,
          target: "≤ 10% fewer",
          met: fewer <= 0.1,
        },
        { figure: "OTLP requests / KiB the receiver got", ours: `${sink.seen.requests} / ${(sink.seen.bytes / 1024).toFixed(0)}` },
      ];
      return { repetitions: ctx.reps, rows, notes: [], raw };
    } finally {
      await onDev.dispose();
      sink.close();
    }
  },
};

await runAlone(tracingOverhead, import.meta.main);
