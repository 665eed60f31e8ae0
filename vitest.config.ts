import { resolve } from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

const migrationsDir = resolve(import.meta.dirname, "migrations");

// Two projects: `workers` runs inside workerd with the real bindings from wrangler.toml (D1 with
// migrations applied, Durable Objects, Worker Loader); `node` runs the CLI as a user would.
// They run one after the other (sequence.groupOrder), each with its own parallelism: see
// "How the suite is kept fast" in CONTRIBUTING.md.
export default defineConfig({
  test: {
    projects: [
      {
        plugins: [
          cloudflareTest(async () => ({
            wrangler: { configPath: "./wrangler.toml" },
            // The AI binding (Workers AI) is remote-only: without this the pool opens a remote
            // session, which needs a Cloudflare login and fails offline. env.AI is then a local
            // stand-in; tests that need Workers AI pass their own binding.
            remoteBindings: false,
            miniflare: {
              bindings: {
                TEST_MIGRATIONS: await readD1Migrations(migrationsDir),
                // Local development: the example values and the shared webhook secret are allowed.
                LITTLE_ENV: "development",
                // Pinned here so a developer's .dev.vars (which wrangler's config reader loads)
                // cannot change what the suite sees: live models unless a test wires others, as on CI.
                LITTLE_MODELS: "live",
                LITTLE_OFFLINE_LATENCY_MS: "0",
                LITTLE_DEV_TOKEN: "test-dev-token",
                LITTLE_ADMIN_TOKEN: "test-admin-token",
                LITTLE_WEBHOOK_SECRET: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
                LITTLE_WEBHOOK_TENANT: "dev",
                // A fixed test key for the encrypted secret store (32 bytes, base64).
                LITTLE_SECRETS_KEY: "dGVzdC1vbmx5LXNlY3JldHMta2V5LTMyLWJ5dGVzISE=",
                // Seeds per seeded reliability test: small on CI, `npm run torture -- --seeds N` for more.
                LITTLE_TORTURE_SEEDS: process.env.LITTLE_TORTURE_SEEDS ?? "20",
                // `node test/histories/record.ts` sets it to re-record the saved histories.
                LITTLE_RECORD_HISTORIES: process.env.VITE_LITTLE_RECORD_HISTORIES ?? "0",
                // One JSON line per run transition (docs/observability.md) is for deployed Workers, not thousands of test runs.
                LITTLE_RUN_LOGS: "off",
              },
            },
          })),
        ],
        test: {
          name: "workers",
          include: ["test/**/*.test.ts"],
          exclude: ["test/cli/**", "test/e2e/**", "test/architecture/**", "test/**/*.node.test.ts"],
          setupFiles: ["./test/setup/apply-migrations.ts", "./test/setup/worker-registry.ts"],
          // One workerd (Miniflare) per pool worker, reused from file to file with its module graph:
          // a fresh one per file spent most of the project's time loading zod/ai/drizzle again. Files
          // therefore share D1 and Durable Objects: a test makes its own ids and tenants, and restores
          // what it overrides (overrideWiring) in afterEach.
          isolate: false,
          // Two workerds on two cores: the project is CPU-bound.
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
          // Importing zod/ai/drizzle into workerd costs seconds on a file's first test.
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: "node",
          environment: "node",
          // architecture: reads src/ and docs/architecture.md from disk, so it runs in Node.
          // *.node.test.ts: tests of any area that need Node (a child process, tsc, the file system).
          include: ["test/cli/**/*.test.ts", "test/e2e/**/*.test.ts", "test/architecture/**/*.test.ts", "test/**/*.node.test.ts"],
          // e2e: each file starts a real `wrangler dev` (startup takes seconds) and mostly waits on
          // it, so files run four at a time even on two cores (vitest's default is cores − 1).
          maxWorkers: 4,
          sequence: { groupOrder: 1 },
          testTimeout: 90_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
