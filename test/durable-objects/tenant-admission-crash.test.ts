/**
 * Issue 32, the crash matrix of the tenant's quota gates: a start is acknowledged before its run
 * is admitted against its tenant's quotas (the run's alarm passes them, src/engine/runs/tenant-gates.ts).
 * A crash between the ack and the admission loses no run and admits none twice; an admission
 * whose answer is lost is asked again and counted once; a run's slot is given back when it ends.
 */
import { runInDurableObject } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import type { FlowLimiters } from "../../src/ports/flow-limiter.ts";
import type { RunEvent } from "../../src/ports/run-events.ts";
import type { RunIndex } from "../../src/ports/run-index.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { call, tenantToken } from "../api/support/api-call.ts";
import { driveToEnd, rawRunStub, runStub } from "../support/drive.ts";
import { quotaEntries } from "../support/tenant-quota.ts";

const OFFLINE = new EnvModelResolver({ mode: "offline", secrets: {} });
const WORKFLOW = "support.summarize-ticket";
const INPUT = { ticketId: "T-32", transcript: "The export button does nothing since the update." };

beforeEach(() => overrideWiring({ models: OFFLINE }));
afterEach(() => overrideWiring({}));

async function newTenant(prefix: string): Promise<{ tenant: string; token: string }> {
  const tenant = `${prefix}_${crypto.randomUUID().slice(0, 8)}`;
  return { tenant, token: await tenantToken(tenant) };
}

/** The run's first index write never lands, so its alarm waits (the first thing it does) until the object is gone. */
function holdingFirstWrite(runId: string): (d1: RunIndex) => RunIndex {
  let held = false;
  return (d1) =>
    new Proxy(d1, {
      get(target, prop, receiver) {
        if (prop === "upsert")
          return (entry: Parameters<RunIndex["upsert"]>[0]) => {
            if (entry.runId === runId && !held) {
              held = true;
              return new Promise<void>(() => {});
            }
            return target.upsert(entry);
          };
        return Reflect.get(target, prop, receiver) as unknown;
      },
    });
}

function tenantAdmissions(events: readonly RunEvent[]): string[] {
  return events.flatMap((e) => (e.type === "FlowAdmitted" && e.payload.scope === "tenant" ? [e.payload.kind] : []));
}

describe("a crash between the ack and the tenant's admission", () => {
  it("loses no run and admits none twice: the armed alarm admits it once, after recovery, and it runs to its end", async () => {
    const { tenant, token } = await newTenant("admit_crash");
    const runId = `admit-crash-${crypto.randomUUID().slice(0, 8)}`;
    overrideWiring({ models: OFFLINE, runs: holdingFirstWrite(runId) });
    const started = await call("POST", `/v1/workflows/${WORKFLOW}/runs`, { token, body: { input: INPUT, runId } });
    expect(started.status).toBe(202);
    // Acked, durable, not admitted: the request is all there is.
    expect((await runStub(runId, tenant).events()).map((e) => e.type)).toEqual(["RunRequested"]);
    expect(await quotaEntries(tenant, "throttle")).toEqual({});

    await runInDurableObject(rawRunStub(runId, tenant), (_instance, state) => state.abort()).catch(() => undefined);
    overrideWiring({ models: OFFLINE });
    const view = await driveToEnd(runId, 40, tenant);
    expect(view.status).toBe("completed");

    const events = await runStub(runId, tenant).events({ limit: 1_000 });
    expect(tenantAdmissions(events)).toEqual(["throttle", "concurrency"]);
    // Admitted before any work: the planner's session follows its admissions.
    const lastAdmission = events.filter((e) => e.type === "FlowAdmitted").at(-1)?.seq ?? 0;
    const firstWork = events.find((e) => e.type.startsWith("harness."))?.seq ?? 0;
    expect(firstWork).toBeGreaterThan(lastAdmission);
    // One start of the window counted; its slot given back at its end.
    expect(await quotaEntries(tenant, "throttle")).toEqual({ [runId]: "started" });
    expect(await quotaEntries(tenant, "concurrency")).toEqual({});
  });

  it("an admission whose answer is lost (the limiter admitted, the run recorded nothing) is asked again and counted once", async () => {
    const { tenant, token } = await newTenant("admit_lost");
    const runId = `admit-lost-${crypto.randomUUID().slice(0, 8)}`;
    let lost = 0;
    overrideWiring({
      models: OFFLINE,
      flow: (limiters): FlowLimiters => ({
        ...limiters,
        acquire: async (ticket, gate, leaseMs) => {
          const answer = await limiters.acquire(ticket, gate, leaseMs);
          if (ticket.runId === runId && gate.scope === "tenant" && gate.kind === "concurrency" && lost === 0) {
            lost++;
            throw new Error("the limiter's answer was lost on the way back");
          }
          return answer;
        },
      }),
    });
    const started = await call("POST", `/v1/workflows/${WORKFLOW}/runs`, { token, body: { input: INPUT, runId } });
    expect(started.status).toBe(202);
    const view = await driveToEnd(runId, 40, tenant);
    expect(view.status).toBe("completed");
    expect(lost).toBe(1);
    const events = await runStub(runId, tenant).events({ limit: 1_000 });
    expect(tenantAdmissions(events)).toEqual(["throttle", "concurrency"]);
    expect(await quotaEntries(tenant, "throttle")).toEqual({ [runId]: "started" });
    expect(await quotaEntries(tenant, "concurrency")).toEqual({});
  });
});
