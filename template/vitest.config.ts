import { defineConfig } from "vitest/config";

// The workflow tests run in plain Node (little-workflow/testing); no Worker is started.
export default defineConfig({ test: { include: ["test/**/*.test.ts"], testTimeout: 30_000 } });
