import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";
import { cronKey } from "../../src/sdk/cron.ts";
import { registeredWorkflows } from "../../src/workflows.ts";

/**
 * A schedule fires only when wrangler.toml lists its expression, and a listed expression nobody
 * has only logs: the repository's crons and its workflows' schedules are the same set. (A Worker
 * cannot read its own cron list at startup, so this is a test, not a startup check.)
 */
// Read as wrangler reads it (the same TOML parser and defaults).
const wrangler = unstable_readConfig({ config: resolve(import.meta.dirname, "../../wrangler.toml") });

describe("wrangler.toml and the registered workflows agree", () => {
  it("every schedule's cron is in [triggers] crons, and every listed cron belongs to a schedule", () => {
    const scheduled = registeredWorkflows.flatMap((w) => (w.definition.schedule ?? []).map((s) => cronKey(s.cron)));
    const listed = (wrangler.triggers?.crons ?? []).map(cronKey);
    expect(scheduled.length).toBeGreaterThan(0);
    expect([...new Set(listed)].sort()).toEqual([...new Set(scheduled)].sort());
  });

  it("the runs queue has a bounded retry count and a dead-letter queue the consumer can send to", () => {
    const consumer = wrangler.queues?.consumers?.find((c: { queue: string }) => c.queue === "little-workflow-runs");
    expect(consumer?.max_retries).toBeGreaterThan(0);
    expect(consumer?.dead_letter_queue).toBe("little-workflow-dead-letters");
    const producer = wrangler.queues?.producers?.find((p: { binding: string }) => p.binding === "LITTLE_DEAD_LETTERS");
    expect(producer?.queue).toBe(consumer?.dead_letter_queue);
  });
});
