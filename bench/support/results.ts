/**
 * What a scenario hands back, how it is written to bench/results/<id>.json, and the machine it
 * ran on. BENCHMARKS.md's tables are rendered from these files (bench/render.ts).
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { ROOT } from "./bench-dev.ts";

export const RESULTS_DIR = join(ROOT, "bench/results");

/** One row of a scenario's table: the figure, ours, the peer's (or "—"), the ratio, the target, met. */
export type Row = { figure: string; ours: string; peer?: string; ratio?: string; target?: string; met?: boolean | null };

export type Machine = { cpus: number; cpuModel: string; memoryGiB: number; node: string; loadAvg1m: number; platform: string };

export type ScenarioResult = {
  id: string;
  title: string;
  /** ISO date of the run. */
  date: string;
  command: string;
  machine: Machine;
  /** Load average (1 min) when the scenario ended: a loaded machine makes every figure slower. */
  loadAvgAfter: number;
  repetitions: number;
  rows: Row[];
  /** Things the reader must know about these figures (unavailable parts, failed runs, …). */
  notes: string[];
  /** Every raw measurement, for whoever wants more than the table. */
  raw: Record<string, unknown>;
};

export function machine(): Machine {
  const list = cpus();
  return {
    cpus: list.length,
    cpuModel: list[0]?.model.trim() ?? "unknown",
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    loadAvg1m: loadavg()[0] ?? 0,
    platform: `${process.platform} ${process.arch}`,
  };
}

export const loadNow = () => Math.round((loadavg()[0] ?? 0) * 100) / 100;

export async function writeResult(result: ScenarioResult): Promise<string> {
  await mkdir(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `${result.id}.json`);
  await writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
  return file;
}

export async function readResult(id: string): Promise<ScenarioResult | null> {
  try {
    return JSON.parse(await readFile(join(RESULTS_DIR, `${id}.json`), "utf8")) as ScenarioResult;
  } catch {
    return null;
  }
}
