/**
 * `npm run dev`: copies .dev.vars.example to .dev.vars when missing, applies the D1 migrations to
 * the local database, then runs `wrangler dev` as local development (`LITTLE_ENV=development`)
 * with any extra arguments.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync } from "node:fs";

if (!existsSync(".dev.vars")) {
  copyFileSync(".dev.vars.example", ".dev.vars");
  console.log("dev: created .dev.vars from .dev.vars.example");
}
const extra = process.argv.slice(2);
const persist = extra.flatMap((arg, i) =>
  arg === "--persist-to" ? ["--persist-to", extra[i + 1] as string] : arg.startsWith("--persist-to=") ? [arg] : [],
);
const migrate = spawnSync("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local", ...persist], { stdio: "inherit" });
if (migrate.status !== 0) process.exit(migrate.status ?? 1);
// Always local development, also with a .dev.vars written before LITTLE_ENV existed.
// --local: the AI binding (Workers AI) is remote-only, and without --local wrangler opens a remote
// session for it, which needs a Cloudflare login and fails offline. `npm run dev -- --no-local`
// (logged in) gives the Worker the real Workers AI binding.
const local = extra.some((a) => a === "--no-local" || a.startsWith("--local") || a === "--remote" || a === "-r") ? [] : ["--local"];
const dev = spawnSync("npx", ["wrangler", "dev", ...local, "--var", "LITTLE_ENV:development", ...extra], { stdio: "inherit" });
process.exit(dev.status ?? 0);
