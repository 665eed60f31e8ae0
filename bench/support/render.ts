/**
 * Renders bench/results/*.json into BENCHMARKS.md: the text between `<!-- bench:<id> -->` and
 * `<!-- /bench:<id> -->` is replaced by that scenario's table, so a rerun of `npm run bench`
 * refreshes every figure while the prose around the tables stays as written.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ROOT } from "./bench-dev.ts";
import { readResult, type ScenarioResult } from "./results.ts";

const BENCHMARKS = join(ROOT, "BENCHMARKS.md");

/** Replaces every marked block whose result exists; answers the ids it refreshed. */
export async function renderBenchmarks(): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(BENCHMARKS, "utf8");
  } catch {
    return [];
  }
  const refreshed: string[] = [];
  const blocks = [...text.matchAll(/<!-- bench:([a-z0-9-]+) -->[\s\S]*?<!-- \/bench:\1 -->/g)];
  for (const block of blocks) {
    const id = block[1] as string;
    const result = await readResult(id);
    if (!result) continue;
    text = text.replace(block[0], `<!-- bench:${id} -->\n${table(result)}\n<!-- /bench:${id} -->`);
    refreshed.push(id);
  }
  await writeFile(BENCHMARKS, text);
  return refreshed;
}

function table(r: ScenarioResult): string {
  const m = r.machine;
  const lines = [
    `Measured ${r.date.slice(0, 16).replace("T", " ")} UTC with \`${r.command}\` on ${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node}; load average ${m.loadAvg1m.toFixed(2)} before, ${r.loadAvgAfter.toFixed(2)} after; ${r.repetitions} repetition${r.repetitions === 1 ? "" : "s"}, median (min–max). Raw: [\`bench/results/${r.id}.json\`](bench/results/${r.id}.json).`,
    "",
    "| figure | ours | peer | ratio | target | met |",
    "| --- | --- | --- | --- | --- | --- |",
    ...r.rows.map(
      (row) =>
        `| ${row.figure} | ${row.ours} | ${row.peer ?? "—"} | ${row.ratio ?? "—"} | ${row.target ?? "—"} | ${row.met === true ? "yes" : row.met === false ? "**no**" : "—"} |`,
    ),
  ];
  if (r.notes.length > 0) lines.push("", ...r.notes.map((n) => `- ${n}`));
  return lines.join("\n");
}

if (import.meta.main) console.log(`refreshed: ${(await renderBenchmarks()).join(", ") || "nothing"}`);
