/**
 * Records the saved histories. Skipped unless `VITE_LITTLE_RECORD_HISTORIES=1` (set by
 * `node test/histories/record.ts`, which writes what this prints to test/histories/<name>.json).
 * The workers pool does not hand `import.meta.env` the process's variables: vitest.config.ts
 * passes this one as the `LITTLE_RECORD_HISTORIES` binding.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { recordScenario } from "./record-scenario.ts";
import { SCENARIOS } from "./scenarios.ts";

const recording = (env as unknown as { LITTLE_RECORD_HISTORIES?: string }).LITTLE_RECORD_HISTORIES === "1";

describe.skipIf(!recording)("record saved histories", () => {
  it("runs every scenario live and prints its log", async () => {
    for (const scenario of SCENARIOS) {
      const history = await recordScenario(scenario);
      const last = history.events.at(-1);
      expect(last?.type, scenario.name).toBe("RunCompleted");
      console.log(`LITTLE_HISTORY ${JSON.stringify(history)}`);
    }
  }, 120_000);
});
