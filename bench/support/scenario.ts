/**
 * How a scenario is declared and run: alone (`node bench/<id>.ts`) or several in a row
 * (`npm run bench`), sharing one bench `wrangler dev`. A scenario returns rows and raw figures;
 * this module adds the machine and date, writes bench/results/<id>.json, prints the table and
 * re-renders BENCHMARKS.md. Benchmarks never fail on a number: only a broken run (an error) sets a
 * non-zero exit code.
 */
import { type BenchClient, benchClient } from "./bench-client.ts";
import { type BenchDev, startBenchDev } from "./bench-dev.ts";
import { renderBenchmarks } from "./render.ts";
import { loadNow, machine, type Row, type ScenarioResult, writeResult } from "./results.ts";

export type ScenarioContext = {
  /** The shared bench `wrangler dev` (started on first use). */
  dev(): Promise<BenchDev>;
  client(): Promise<BenchClient>;
  /** Repetitions for the repeated measurements (`--reps N`, default 5). */
  reps: number;
  log(message: string): void;
};

export type ScenarioOutput = Pick<ScenarioResult, "repetitions" | "rows" | "notes" | "raw">;

export type Scenario = {
  readonly id: string;
  readonly title: string;
  run(ctx: ScenarioContext): Promise<ScenarioOutput>;
};

export const DEFAULT_REPS = 5;

export function parseArgs(argv: readonly string[]): { ids: string[]; reps: number } {
  const ids: string[] = [];
  let reps = DEFAULT_REPS;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--reps") reps = Number(argv[++i]);
    else if (arg.startsWith("--reps=")) reps = Number(arg.slice(7));
    else ids.push(arg);
  }
  if (!Number.isInteger(reps) || reps < 1) throw new Error(`--reps wants a positive integer, got ${reps}`);
  return { ids, reps };
}

/** Runs `scenarios` in order; resolves with the number of scenarios that broke. */
export async function runScenarios(scenarios: readonly Scenario[], options: { reps: number; command: string }): Promise<number> {
  // A holder, not a `let`: the closure below assigns it, which TypeScript's narrowing does not see.
  const shared: { dev: Promise<BenchDev> | null } = { dev: null };
  const ctx: ScenarioContext = {
    dev: () => {
      shared.dev ??= startBenchDev().then((d) => {
        console.log(`bench wrangler dev up on ${d.url} in ${Math.round(d.startMs)} ms`);
        return d;
      });
      return shared.dev;
    },
    client: async () => {
      const d = await ctx.dev();
      return benchClient(d.url, d.devToken);
    },
    reps: options.reps,
    log: (message) => console.log(`  ${message}`),
  };
  let broken = 0;
  const targets: string[] = [];
  try {
    for (const scenario of scenarios) {
      console.log(`\n== ${scenario.id}: ${scenario.title}`);
      const before = machine();
      try {
        const output = await scenario.run(ctx);
        const result: ScenarioResult = {
          id: scenario.id,
          title: scenario.title,
          date: new Date().toISOString(),
          command: options.command,
          machine: before,
          loadAvgAfter: loadNow(),
          ...output,
        };
        const file = await writeResult(result);
        printRows(result.rows);
        for (const r of result.rows.filter((row) => row.target))
          targets.push(
            `${r.met === true ? "met   " : r.met === false ? "MISSED" : "—     "} ${scenario.id}: ${r.figure} = ${r.ours} (target ${r.target})`,
          );
        for (const note of result.notes) console.log(`  note: ${note}`);
        console.log(`  → ${file}`);
      } catch (error) {
        broken += 1;
        console.error(`  ${scenario.id} broke: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        if (shared.dev) console.error((await shared.dev).logs().slice(-3_000));
      }
    }
  } finally {
    // A dev that never started has nothing to stop (its start error was reported per scenario).
    if (shared.dev) await shared.dev.then((d) => d.dispose()).catch(() => undefined);
  }
  if (targets.length > 0) {
    console.log("\nTargets:");
    for (const t of targets) console.log(`  ${t}`);
  }
  const rendered = await renderBenchmarks();
  console.log(`\nBENCHMARKS.md: ${rendered.length > 0 ? `tables refreshed for ${rendered.join(", ")}` : "no markers found"}`);
  return broken;
}

/** `node bench/<id>.ts [--reps N]`: runs one scenario when its file is the entry point. */
export async function runAlone(scenario: Scenario, main: boolean | undefined): Promise<void> {
  if (!main) return;
  const { reps } = parseArgs(process.argv.slice(2));
  const broken = await runScenarios([scenario], { reps, command: `node bench/${scenario.id}.ts --reps ${reps}` });
  process.exit(broken > 0 ? 1 : 0);
}

function printRows(rows: readonly Row[]): void {
  for (const r of rows) {
    const parts = [`ours ${r.ours}`];
    if (r.peer) parts.push(`peer ${r.peer}`);
    if (r.ratio) parts.push(`ratio ${r.ratio}`);
    if (r.target) parts.push(`target ${r.target}${r.met === true ? " (met)" : r.met === false ? " (MISSED)" : ""}`);
    console.log(`  ${r.figure}: ${parts.join(" | ")}`);
  }
}
