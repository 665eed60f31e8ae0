import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { DurableObjectEventLog } from "../../src/adapters/do-sqlite/do-event-log.ts";
import { MemoryEventLog } from "../../src/adapters/memory/memory-event-log.ts";
import { eventLogContract } from "./event-log.contract.ts";

// The same contract, against every EventLog adapter.

eventLogContract("MemoryEventLog", (runId, clock, body) => body(new MemoryEventLog(runId, clock)));

// One Durable Object per run id (the contract gives every test a fresh id), so logs never share
// a table; the log is opened inside the object, over its own SQLite storage.
eventLogContract(
  "DurableObjectEventLog",
  (runId, clock, body) =>
    runInDurableObject(env.RUNS.get(env.RUNS.idFromName(runId)), (_instance, state) =>
      body(new DurableObjectEventLog(state.storage, runId, clock)),
    ),
  { persistent: true },
);
