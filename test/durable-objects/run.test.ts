import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { RunObject } from "../../durable-objects/run.ts";

describe("RunObject (the run Durable Object, SQLite-backed)", () => {
  it("is one object per run id with its own event table", async () => {
    const stub = env.RUNS.get(env.RUNS.idFromName("run_foundation"));
    expect(await stub.eventCount()).toBe(0);
    await runInDurableObject(stub, async (instance: RunObject, state) => {
      expect(instance).toBeInstanceOf(RunObject);
      const tables = state.storage.sql.exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'events'").toArray();
      expect(tables).toEqual([{ name: "events" }]);
    });
  });
});
