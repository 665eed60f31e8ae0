import { describe, expect, it } from "vitest";
import { MemoryEventLog } from "../../../src/adapters/memory/memory-event-log.ts";
import { MemoryRunIndex } from "../../../src/adapters/memory/memory-run-index.ts";
import { askGatesAtStart, type FlowPorts, passFlowGates } from "../../../src/engine/flow/admit-flow.ts";
import { HeldSlots } from "../../../src/engine/flow/held-slots.ts";
import { readRunState } from "../../../src/engine/run-state.ts";
import type { FlowGate, FlowLimiters } from "../../../src/ports/flow-limiter.ts";
import type { RunEventPayloads } from "../../../src/ports/run-events.ts";

const LEASE_MS = 60_000;
const WORKFLOW_GATE: FlowGate = { kind: "concurrency", index: 0, key: "customer-1", limit: 2 };
const TENANT_GATE: FlowGate = { kind: "concurrency", index: 0, key: "tenant", limit: 100, scope: "tenant" };

/** A limiter that admits every ask at its clock, counting the asks per gate. */
function countingLimiters(now: () => number): FlowLimiters & { asks: string[] } {
  const asks: string[] = [];
  return {
    asks,
    acquire: async (_ticket, gate) => {
      asks.push(gate.scope ?? "workflow");
      return { admitted: true, at: now() };
    },
    release: async () => {},
    position: async () => null,
    queues: async () => [],
  };
}

async function runWithGates(gates: FlowGate[]) {
  let now = 1_000_000;
  const clock = { now: () => now };
  const log = new MemoryEventLog("run_held", clock);
  const request = {
    workflowId: "flow.held",
    tenant: "t1",
    input: {},
    flow: gates,
  } as unknown as RunEventPayloads["RunRequested"];
  const started = await log.append([{ type: "RunRequested", payload: request }]);
  const flow = countingLimiters(clock.now);
  const held = new HeldSlots();
  const ports: FlowPorts = { runId: "run_held", log, runs: new MemoryRunIndex(), clock, flow, flowLeaseMs: LEASE_MS, held };
  const slice = async () => passFlowGates(ports, (await readRunState(log)).state);
  const advance = (ms: number) => {
    now += ms;
  };
  return { log, flow, held, ports, started, slice, advance };
}

describe("HeldSlots: a slot admitted lately is not asked for again", () => {
  it("a later slice within half a lease asks no limiter; past it, or after a release, it asks again", async () => {
    const run = await runWithGates([TENANT_GATE]);
    expect(await run.slice()).toEqual({ admitted: true });
    expect(run.flow.asks).toEqual(["tenant"]);
    run.advance(LEASE_MS / 2 - 1);
    expect(await run.slice()).toEqual({ admitted: true });
    expect(run.flow.asks).toEqual(["tenant"]);
    run.advance(1);
    await run.slice();
    expect(run.flow.asks).toEqual(["tenant", "tenant"]);
    run.held.forget();
    await run.slice();
    expect(run.flow.asks).toHaveLength(3);
    // Admitted once in the log, however often it was asked.
    const admitted = (await run.log.all()).filter((e) => e.type === "FlowAdmitted");
    expect(admitted).toHaveLength(1);
  });

  it("the first slice records the start's admission (its time) without asking the workflow's limiter again", async () => {
    const run = await runWithGates([WORKFLOW_GATE, TENANT_GATE]);
    expect(await askGatesAtStart(run.ports, run.started)).toEqual([]);
    expect(run.flow.asks).toEqual(["workflow"]);
    const admittedAt = run.ports.clock.now();
    run.advance(25);
    await run.slice();
    // The tenant's gate is asked by the slice (it is never the start's); the workflow's is not asked twice.
    expect(run.flow.asks).toEqual(["workflow", "tenant"]);
    const admissions = (await run.log.all()).flatMap((e) => (e.type === "FlowAdmitted" ? [e.payload] : []));
    expect(admissions).toMatchObject([
      { kind: "concurrency", key: "customer-1", admittedAt },
      { kind: "concurrency", key: "tenant", scope: "tenant", admittedAt: admittedAt + 25 },
    ]);
    // Both recorded in one batch: one sync.
    const seqs = (await run.log.all()).filter((e) => e.type === "FlowAdmitted").map((e) => e.at);
    expect(new Set(seqs).size).toBe(1);
  });

  it("a clock that went back is no proof of a fresh slot", () => {
    const held = new HeldSlots();
    held.admitted("concurrency:0", 5_000, 5_000);
    expect(held.fresh("concurrency:0", 5_000 + LEASE_MS / 4, LEASE_MS)).toEqual({ askedAt: 5_000, admittedAt: 5_000 });
    expect(held.fresh("concurrency:0", 4_999, LEASE_MS)).toBeUndefined();
    expect(held.fresh("throttle:0", 5_000, LEASE_MS)).toBeUndefined();
  });
});
