import { describe, expect, it } from "vitest";
import { migrationSummary } from "../../src/cli/commands/dev.ts";

/** What wrangler 4.164 prints applying two migrations: the whole table again after each one. */
const APPLIED = `Migrations to be applied:
┌────────────────────────────────────────┐
│ name                                   │
├────────────────────────────────────────┤
│ 0000_init.sql                          │
├────────────────────────────────────────┤
│ 0001_runs_tokens_webhooks.sql          │
└────────────────────────────────────────┘
🚣 8 commands executed successfully.
┌────────────────────────────────────────┬────────┐
│ name                                   │ status │
├────────────────────────────────────────┼────────┤
│ 0000_init.sql                          │ ✅     │
├────────────────────────────────────────┼────────┤
│ 0001_runs_tokens_webhooks.sql          │ 🕒️     │
└────────────────────────────────────────┴────────┘
┌────────────────────────────────────────┬────────┐
│ name                                   │ status │
├────────────────────────────────────────┼────────┤
│ 0000_init.sql                          │ ✅     │
├────────────────────────────────────────┼────────┤
│ 0001_runs_tokens_webhooks.sql          │ ✅     │
└────────────────────────────────────────┴────────┘
`;

describe("little dev", () => {
  it("sums wrangler's migration tables up as one line per migration applied", () => {
    expect(migrationSummary(APPLIED)).toEqual(["D1 (local): applied 0000_init.sql", "D1 (local): applied 0001_runs_tokens_webhooks.sql"]);
    expect(migrationSummary("Resource location: local\n\n✅ No migrations to apply!\n")).toEqual(["D1 (local): migrations up to date"]);
  });
});
