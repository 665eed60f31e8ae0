import { applyD1Migrations, env } from "cloudflare:test";

// Applies migrations/ to the test D1 database before each test file (idempotent).
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
