/**
 * `npm run deploy -- --sandbox isolate|container [--dry-run] [--secret NAME]`: deploys this
 * repository's own Worker through `little deploy` (docs/deploy.md). wrangler.toml stays the
 * development config; its JSON form (wrangler.base.json, generated) is what little deploy reads,
 * so only the chosen sandbox's bindings are deployed (a bare `wrangler deploy` would build the
 * container image even for the isolate sandbox). A database id the deploy finds or creates is
 * written back into wrangler.toml.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { parse } from "smol-toml";

const toml = readFileSync("wrangler.toml", "utf8");
writeFileSync("wrangler.base.json", `${JSON.stringify(parse(toml), null, 2)}\n`);
const deploy = spawnSync(process.execPath, ["bin/little.js", "deploy", "-c", "wrangler.base.json", ...process.argv.slice(2)], {
  stdio: "inherit",
});
const base = JSON.parse(readFileSync("wrangler.base.json", "utf8")) as { d1_databases?: { binding: string; database_id?: string }[] };
const id = base.d1_databases?.find((d) => d.binding === "DB")?.database_id;
if (id && !toml.includes(`"${id}"`)) {
  writeFileSync("wrangler.toml", toml.replace(/^(database_id\s*=\s*")[^"]*(")/m, `$1${id}$2`));
  console.log(`deploy: wrote database_id ${id} into wrangler.toml`);
}
process.exit(deploy.status ?? 1);
