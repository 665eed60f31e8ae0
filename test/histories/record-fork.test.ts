/**
 * Records test/histories/fork-reuse.json. Skipped unless VITE_LITTLE_RECORD_HISTORIES=1; prints the
 * history after `LITTLE_FORK_HISTORY ` (write it to the file, then format it with Biome).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { recordForkHistory } from "./fork-history.ts";

const recording = (env as unknown as { LITTLE_RECORD_HISTORIES?: string }).LITTLE_RECORD_HISTORIES === "1";

describe.skipIf(!recording)("record the fork history", () => {
  it("runs the source and the fork and prints both logs", async () => {
    const history = await recordForkHistory();
    expect(history.events.at(-1)?.type).toBe("RunCompleted");
    console.log(`LITTLE_FORK_HISTORY ${JSON.stringify(history)}`);
  }, 120_000);
});
