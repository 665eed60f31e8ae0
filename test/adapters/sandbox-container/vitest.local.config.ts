import { resolve } from "node:path";
import { defineConfig } from "vitest/config";

/**
 * The container adapter against local stand-ins for a container, in plain Node (not workerd):
 * `npx vitest run --config test/adapters/sandbox-container/vitest.local.config.ts`. The files are
 * named `*.local.ts` so the `workers` project (which runs `*.test.ts` inside workerd, where no
 * process can be started) does not pick them up.
 */
export default defineConfig({
  test: {
    name: "sandbox-container-local",
    root: resolve(import.meta.dirname, "../../.."),
    environment: "node",
    include: ["test/adapters/sandbox-container/**/*.local.ts"],
    testTimeout: 60_000,
    // Real-container files each start a wrangler dev and containers: one at a time on small machines.
    fileParallelism: false,
  },
});
