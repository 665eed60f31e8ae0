/**
 * Records the saved histories. Skipped unless `VITE_LITTLE_RECORD_HISTORIES=1` (set by
 * `node test/histories/record.ts`, which writes what this prints to test/histories/<name>.json).
 */
import { describe, expect, it } from "vitest";
import { recordScenario } from "./record-scenario.ts";
import { SCENARIOS } from "./scenarios.ts";

const recording = (import.meta as unknown as { env: Record<string, string | undefined> }).env.VITE_LITTLE_RECORD_HISTORIES === "1";

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
