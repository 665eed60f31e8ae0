/**
 * The start path's kept approval reads (src/engine/runs/approval-reads.ts): a second start within
 * the window reads nothing, an absent approval of a gated definition is read every time, a write
 * through the API forgets, and a read that a write overtook is not kept.
 */
import { describe, expect, it } from "vitest";
import { APPROVAL_READ_TTL_MS, forgetApproval, readApproval } from "../../../src/engine/runs/approval-reads.ts";
import type { Digest } from "../../../src/json/digest.ts";
import type { DefinitionApproval, DefinitionApprovals } from "../../../src/ports/definition-approvals.ts";

const HASH = `sha256:${"a".repeat(64)}` as Digest;

/** A port whose `get` answers `rows` and counts its calls; `gate` holds a read open until released. */
function countingApprovals(rows: Map<string, DefinitionApproval>) {
  const calls = { get: 0 };
  let gate: Promise<void> | null = null;
  const port = {
    async get(tenant: string, hash: Digest) {
      calls.get++;
      const answer = rows.get(`${tenant}/${hash}`) ?? null;
      if (gate) await gate;
      return answer;
    },
  } as unknown as DefinitionApprovals;
  return {
    port,
    calls,
    hold() {
      let release = () => {};
      gate = new Promise<void>((done) => {
        release = done;
      });
      return () => {
        gate = null;
        release();
      };
    },
  };
}

const approval = (tenant: string, approvedAt: number): DefinitionApproval => ({
  tenant,
  definitionHash: HASH,
  workflowId: "w",
  approvedAt,
  pinnedVersionId: null,
  pinnedVersionHash: null,
  pinnedAt: null,
});

describe("approval reads on the start path", () => {
  it("reads once within the window, again after it, and never across tenants", async () => {
    const { port, calls } = countingApprovals(new Map([["a/" + HASH, approval("a", 1)]]));
    expect(await readApproval(port, "a", HASH, 1_000, { keepAbsent: true })).toMatchObject({ approvedAt: 1 });
    expect(await readApproval(port, "a", HASH, 1_000 + APPROVAL_READ_TTL_MS - 1, { keepAbsent: true })).toMatchObject({ approvedAt: 1 });
    expect(calls.get).toBe(1);
    expect(await readApproval(port, "b", HASH, 1_001, { keepAbsent: true })).toBeNull();
    expect(calls.get).toBe(2);
    await readApproval(port, "a", HASH, 1_000 + APPROVAL_READ_TTL_MS, { keepAbsent: true });
    expect(calls.get).toBe(3);
    // A clock that went back does not make an old read look new.
    await readApproval(port, "a", HASH, 10, { keepAbsent: true });
    expect(calls.get).toBe(4);
  });

  it("keeps an absent approval only where asked: a gated definition's refusal reads every time, so a new approval counts at once", async () => {
    const rows = new Map<string, DefinitionApproval>();
    const { port, calls } = countingApprovals(rows);
    expect(await readApproval(port, "a", HASH, 1, { keepAbsent: false })).toBeNull();
    rows.set(`a/${HASH}`, approval("a", 2));
    expect(await readApproval(port, "a", HASH, 2, { keepAbsent: false })).toMatchObject({ approvedAt: 2 });
    expect(calls.get).toBe(2);
    const other = countingApprovals(new Map());
    await readApproval(other.port, "a", HASH, 1, { keepAbsent: true });
    await readApproval(other.port, "a", HASH, 2, { keepAbsent: true });
    expect(other.calls.get).toBe(1);
  });

  it("forgets what a write changed, and does not keep a read that a write overtook", async () => {
    const rows = new Map([[`a/${HASH}`, approval("a", 1)]]);
    const { port, calls, hold } = countingApprovals(rows);
    await readApproval(port, "a", HASH, 1, { keepAbsent: true });
    rows.delete(`a/${HASH}`);
    forgetApproval(port, "a", HASH);
    expect(await readApproval(port, "a", HASH, 2, { keepAbsent: true })).toBeNull();
    expect(calls.get).toBe(2);
    // A read out while an approve lands: it answers what it read, but the next start reads again.
    rows.set(`a/${HASH}`, approval("a", 3));
    forgetApproval(port, "a", HASH);
    rows.delete(`a/${HASH}`);
    const release = hold();
    const inFlight = readApproval(port, "a", HASH, 3, { keepAbsent: true });
    rows.set(`a/${HASH}`, approval("a", 4));
    forgetApproval(port, "a", HASH);
    release();
    expect(await inFlight).toBeNull();
    expect(await readApproval(port, "a", HASH, 4, { keepAbsent: true })).toMatchObject({ approvedAt: 4 });
    expect(calls.get).toBe(4);
  });
});
