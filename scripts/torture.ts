/**
 * `npm run torture -- --seeds N`: the reliability suite (test/reliability) with N seeds per seeded
 * test instead of the CI default. The count reaches the tests inside workerd as the
 * `LITTLE_TORTURE_SEEDS` binding (vitest.config.ts reads it from the environment). With 100 or more
 * seeds the full-size flow-control files run too (the 40-run burst, and test/e2e/flow-crash).
 */
import { spawnSync } from "node:child_process";

const args = process.argv.slice(2);
const at = args.indexOf("--seeds");
const inline = args.find((arg) => arg.startsWith("--seeds="));
const raw = inline ? inline.slice("--seeds=".length) : at >= 0 ? args[at + 1] : undefined;
const seeds = raw === undefined ? 200 : Number(raw);
if (!Number.isInteger(seeds) || seeds < 1) {
  console.error(JSON.stringify({ error: { code: "invalid_seeds", message: `--seeds wants a positive integer, got ${raw}` } }));
  process.exit(2);
}
const rest = args.filter((arg, i) => !(arg === "--seeds" || arg.startsWith("--seeds=") || (at >= 0 && i === at + 1)));
console.log(`torture: ${seeds} seeds per seeded test`);
const run = spawnSync("npx", ["vitest", "run", "--project", "workers", "test/reliability", ...rest], {
  stdio: "inherit",
  env: { ...process.env, LITTLE_TORTURE_SEEDS: String(seeds) },
});
// The torture-only end-to-end file (flow control across a SIGKILL of wrangler dev), with 100+ seeds.
const e2e =
  seeds >= 100 && rest.length === 0
    ? spawnSync("npx", ["vitest", "run", "--project", "node", "test/e2e/flow-crash.e2e.test.ts"], {
        stdio: "inherit",
        env: { ...process.env, LITTLE_TORTURE_SEEDS: String(seeds) },
      })
    : { status: 0 };
process.exit((run.status ?? 1) || (e2e.status ?? 1));
