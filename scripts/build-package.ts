/**
 * `npm run build` (and `prepack`): the published package's dist/, compiled ESM and .d.ts by tsc
 * with tsconfig.build.json. Starts from an empty dist/ so no file of a removed module ships.
 * Exits non-zero on any type error: a package is not published from code that does not check.
 */
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
rmSync(join(root, "dist"), { recursive: true, force: true });
const tsc = spawnSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "tsconfig.build.json")], {
  cwd: root,
  stdio: "inherit",
});
if (tsc.status !== 0) {
  process.stderr.write("build: tsc reported errors (above); dist/ is incomplete\n");
  process.exit(tsc.status ?? 1);
}
process.stdout.write("build: dist/ written (ESM + .d.ts)\n");
