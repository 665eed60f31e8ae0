import { print } from "../output.ts";
import { runProcess } from "../run-process.ts";
import { DEV_USAGE } from "../usage.ts";

/**
 * `little dev [wrangler dev options]`: applies the project's D1 migrations to the local database,
 * printing one line per migration applied (wrangler reprints its whole table after each one, some
 * 35 lines a migration, and shows it all only when applying fails), then runs `wrangler dev` with
 * the options given (`--port 8801`, `--persist-to`, …).
 *
 * @example
 * little dev --port 8801
 */
export async function devCommand(args: readonly string[]): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    print(`usage: little ${DEV_USAGE}`);
    return 0;
  }
  const persist = args.flatMap((arg, i) =>
    arg === "--persist-to" ? ["--persist-to", args[i + 1] ?? ""] : arg.startsWith("--persist-to=") ? [arg] : [],
  );
  const migrate = await runProcess("wrangler", ["d1", "migrations", "apply", "DB", "--local", ...persist], "capture");
  if (migrate.code !== 0) {
    process.stderr.write(`${migrate.stdout}${migrate.stderr}`);
    return migrate.code;
  }
  for (const line of migrationSummary(migrate.stdout)) print(line);
  return (await runProcess("wrangler", ["dev", ...args], "inherit")).code;
}

/** One line per migration wrangler applied, or one saying the database was up to date. */
export function migrationSummary(output: string): string[] {
  if (/No migrations to apply/.test(output)) return ["D1 (local): migrations up to date"];
  const applied = [...new Set([...output.matchAll(/│\s*(\S+\.sql)\s*│\s*✅/g)].map((m) => m[1] as string))];
  return applied.length > 0 ? applied.map((name) => `D1 (local): applied ${name}`) : ["D1 (local): migrations applied"];
}
