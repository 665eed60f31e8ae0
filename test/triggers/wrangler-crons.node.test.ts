import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";
import { cronKey } from "../../src/sdk/cron.ts";
import { DEFAULT_QUEUE_MAX_RETRIES } from "../../src/triggers/queue-max-retries.ts";
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
    // The consumer dead-letters a message itself on its last attempt, so it must know max_retries.
    const configured = (wrangler.vars as Record<string, unknown> | undefined)?.LITTLE_QUEUE_MAX_RETRIES;
    expect(consumer?.max_retries).toBe(configured === undefined ? DEFAULT_QUEUE_MAX_RETRIES : Number(configured));
    expect(consumer?.dead_letter_queue).toBe("little-workflow-dead-letters");
    const producer = wrangler.queues?.producers?.find((p: { binding: string }) => p.binding === "LITTLE_DEAD_LETTERS");
    expect(producer?.queue).toBe(consumer?.dead_letter_queue);
  });

  it("the project template's runs queue retries as many times as the consumer believes", () => {
    const template = readFileSync(resolve(import.meta.dirname, "../../template/wrangler.jsonc"), "utf8");
    expect(template).not.toMatch(/LITTLE_QUEUE_MAX_RETRIES/);
    expect([...template.matchAll(/"max_retries":\s*(\d+)/g)].map((m) => Number(m[1]))).toEqual([DEFAULT_QUEUE_MAX_RETRIES]);
  });
});
