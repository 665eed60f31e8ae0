/**
 * Scenario 7 — cold start. A fresh `wrangler dev` of the production Worker (wrangler.toml, a new
 * state folder) to its first completed run of the seed workflow (offline planner), as a user
 * sees it from the outside; and the Worker bundle's size, gzip, from
 * `wrangler deploy --dry-run --outdir`, against the 3 MB (free) and 10 MB (paid) limits.
 */
import { readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { benchClient } from "./support/bench-client.ts";
import { execFileText, snapshot, startBenchDev, WRANGLER } from "./support/bench-dev.ts";
import type { Row } from "./support/results.ts";
import { runAlone, type Scenario } from "./support/scenario.ts";
import { cell, summarize } from "./support/stats.ts";

const MB = 1_000_000;
const MIB = 1_048_576;
const MAX_REPS = 3;

type Start = { migrateMs: number; healthMs: number; firstRunMs: number; totalMs: number };

async function bundleSize(): Promise<{ gzipBytes: number; rawBytes: number; wranglerLine: string }> {
  const dir = join(tmpdir(), `little-bench-bundle-${process.pid}-${Date.now()}`);
  try {
    await snapshot(dir);
    const out = join(dir, "out");
    const text = await execFileText(
      process.execPath,
      [WRANGLER, "deploy", "--dry-run", "--containers-rollout=none", "--outdir", out],
      dir,
      { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1", FORCE_COLOR: "0" },
    );
    let gzipBytes = 0;
    let rawBytes = 0;
    for (const file of await readdir(out)) {
      if (file.endsWith(".map") || file.endsWith(".md")) continue;
      const bytes = await readFile(join(out, file));
      rawBytes += bytes.length;
      gzipBytes += gzipSync(bytes, { level: 9 }).length;
    }
    return { gzipBytes, rawBytes, wranglerLine: /Total Upload:[^\n]*/.exec(text)?.[0] ?? "" };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export const coldStart: Scenario = {
  id: "cold-start",
  title: "Cold start: a fresh wrangler dev to the first completed run; bundle size",
  async run(ctx) {
    const reps = Math.min(ctx.reps, MAX_REPS);
    const starts: Start[] = [];
    for (let i = 0; i < reps; i++) {
      const dev = await startBenchDev({ config: "production" });
      try {
        const api = benchClient(dev.url, dev.devToken);
        const r = await api.call<{ run?: { status: string } }>("POST", "/v1/workflows/support.summarize-ticket/runs?wait=60", {
          input: { ticketId: "T-cold", transcript: "The dashboard shows a 500 error since the upgrade." },
        });
        if (r.body.run?.status !== "completed") throw new Error(`first run answered ${r.status}: ${JSON.stringify(r.body)}`);
        starts.push({ migrateMs: dev.migrateMs, healthMs: dev.startMs, firstRunMs: r.ms, totalMs: dev.startMs + r.ms });
        ctx.log(
          `rep ${i + 1}: migrations ${dev.migrateMs.toFixed(0)} ms, healthy ${dev.startMs.toFixed(0)} ms, first run ${r.ms.toFixed(0)} ms`,
        );
      } finally {
        await dev.dispose();
      }
    }
    const bundle = await bundleSize();
    ctx.log(`bundle: ${bundle.gzipBytes} bytes gzip (${bundle.wranglerLine})`);
    const rows: Row[] = [
      { figure: "spawn → first completed run, ms", ours: cell(summarize(starts.map((s) => s.totalMs)), 0) },
      { figure: "spawn → GET /v1/health 200, ms", ours: cell(summarize(starts.map((s) => s.healthMs)), 0) },
      { figure: "first run (seed workflow, planned), ms", ours: cell(summarize(starts.map((s) => s.firstRunMs)), 0) },
      { figure: "D1 migrations on a fresh state folder (before the spawn), ms", ours: cell(summarize(starts.map((s) => s.migrateMs)), 0) },
      {
        figure: "Worker bundle, gzip",
        ours: `${(bundle.gzipBytes / MIB).toFixed(2)} MiB = ${(bundle.gzipBytes / MB).toFixed(2)} MB (${(bundle.rawBytes / MIB).toFixed(2)} MiB raw)`,
        target: "< 3 MB free, < 10 MB paid",
        met: bundle.gzipBytes < 3 * MB,
      },
      {
        figure: "share of the free-plan limit / paid-plan limit",
        ours: `${((bundle.gzipBytes / (3 * MB)) * 100).toFixed(0)}% / ${((bundle.gzipBytes / (10 * MB)) * 100).toFixed(0)}%`,
      },
    ];
    return { repetitions: reps, rows, notes: [`wrangler: ${bundle.wranglerLine}`], raw: { starts, bundle } };
  },
};

await runAlone(coldStart, import.meta.main);
