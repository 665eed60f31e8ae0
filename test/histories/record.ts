/**
 * `node test/histories/record.ts`: re-records test/histories/<scenario>.json from the scenarios in
 * scenarios.ts. The runs need workerd (code.run uses the Worker Loader), so this runs
 * record.test.ts in the vitest workers project with VITE_LITTLE_RECORD_HISTORIES=1 and writes
 * the logs it prints. Re-record only on purpose: a changed history means the engine now writes
 * different events for the same run, which is what the saved histories exist to catch.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const run = spawnSync("npx", ["vitest", "run", "--project", "workers", "test/histories/record.test.ts"], {
  cwd: join(here, "..", ".."),
  env: { ...process.env, VITE_LITTLE_RECORD_HISTORIES: "1", NO_COLOR: "1" },
  encoding: "utf8",
  maxBuffer: 256 * 1024 * 1024,
});
const marker = "LITTLE_HISTORY ";
const histories = (run.stdout ?? "")
  .split("\n")
  .filter((line) => line.includes(marker))
  // Vitest prefixes console lines with colour codes; the JSON runs from the marker to the line's end.
  .map((line) => JSON.parse(line.slice(line.indexOf(marker) + marker.length)) as { scenario: string });
if (run.status !== 0 || histories.length === 0) {
  process.stderr.write(run.stdout ?? "");
  process.stderr.write(run.stderr ?? "");
  console.error(
    JSON.stringify({ error: { code: "record_failed", message: `vitest exited ${run.status}; ${histories.length} histories printed` } }),
  );
  process.exit(1);
}
const files = histories.map((history) => {
  const file = join(here, `${history.scenario}.json`);
  writeFileSync(file, `${JSON.stringify(history, null, 2)}\n`);
  console.log(`wrote ${file}`);
  return file;
});
// The repository's formatter owns JSON layout; keep the files as `npm run lint` wants them.
spawnSync("npx", ["biome", "format", "--write", ...files], { stdio: "inherit" });
