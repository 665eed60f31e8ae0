/**
 * findTenantRun's order (src/engine/runs/find-tenant-run.ts): the run's object first, then the
 * index only when no object has the run, then the tombstones, else 404. Each port records what it
 * was asked, so the test sees which lookups a door pays for (each index or tombstone read is a D1
 * round trip in the Worker; test/api/start-round-trips.test.ts counts those through the real API).
 */
import { describe, expect, it } from "vitest";
import { catalogOf } from "../../../src/engine/run-environment.ts";
import { findTenantRun, type RunLookupPorts } from "../../../src/engine/runs/find-tenant-run.ts";
import type { RunEvent } from "../../../src/ports/run-events.ts";
import type { RunHandle } from "../../../src/ports/run-handle.ts";
import type { RunIndexEntry } from "../../../src/ports/run-index.ts";
import { LittleError } from "../../../src/sdk/errors/little-error.ts";
import { RunDeletedError } from "../../../src/sdk/errors/run-deleted-error.ts";
import { RunNotFoundError } from "../../../src/sdk/errors/run-not-found-error.ts";

/** A run object's first event: the request of `tenant`'s run. */
function requested(tenant: string, workflowId: string): RunEvent {
  return {
    seq: 1,
    at: 1_000,
    type: "RunRequested",
    payload: { workflowId, input: {}, trigger: { kind: "http" }, tenant, placement: { locationHint: "weur" } },
  } as RunEvent;
}

function anchorRow(tenant: string, runId: string): RunIndexEntry {
  return {
    tenant,
    runId,
    workflowId: "wf.anchored",
    status: "minted",
    triggerKind: "anchor",
    definitionHash: null,
    versionId: null,
    causeCode: null,
    placement: {},
    createdAt: 5,
    updatedAt: 5,
  };
}

/** Objects by `tenant:runId`, index rows, tombstones; `asked` lists every lookup in order. */
function world(setup: { objects?: Record<string, RunEvent>; rows?: RunIndexEntry[]; tombstones?: string[] }) {
  const asked: string[] = [];
  const ports: RunLookupPorts = {
    runHandles: {
      open: (tenant, runId) =>
        ({
          events: async () => {
            asked.push(`object ${tenant}:${runId}`);
            const first = setup.objects?.[`${tenant}:${runId}`];
            return first ? [first] : [];
          },
        }) as Partial<RunHandle> as RunHandle,
      jurisdictionsEnforced: () => false,
    },
    workflows: catalogOf([]),
    runs: {
      get: async (tenant, runId) => {
        asked.push(`index ${tenant}:${runId}`);
        return setup.rows?.find((r) => r.tenant === tenant && r.runId === runId) ?? null;
      },
    },
    deletions: {
      tombstone: async (tenant, runId) => {
        asked.push(`tombstone ${tenant}:${runId}`);
        return setup.tombstones?.includes(`${tenant}:${runId}`)
          ? { tenant, runId, workflowId: "wf", placement: {}, state: "done", by: "dev", deletedAt: 7 }
          : null;
      },
    },
  };
  return { ports, asked };
}

describe("findTenantRun", () => {
  it("finds a run at its object with no index or tombstone read; the index row only when asked for", async () => {
    const { ports, asked } = world({ objects: { "acme:r1": requested("acme", "wf.live") } });
    const found = await findTenantRun(ports, "acme", "r1");
    expect({ workflowId: found.workflowId, placement: found.placement, entry: found.entry }).toEqual({
      workflowId: "wf.live",
      placement: { locationHint: "weur" },
      entry: null,
    });
    expect(asked).toEqual(["object acme:r1"]);
    await findTenantRun(ports, "acme", "r1", { indexRow: true });
    expect(asked.slice(1)).toEqual(["object acme:r1", "index acme:r1"]);
  });

  it("asks the index only when no object has the run (a minted anchor), and no tombstone then", async () => {
    const { ports, asked } = world({ rows: [anchorRow("acme", "a1")] });
    const found = await findTenantRun(ports, "acme", "a1");
    expect(found.entry?.status).toBe("minted");
    expect(found.workflowId).toBe("wf.anchored");
    expect(asked).toEqual(["object acme:a1", "index acme:a1"]);
  });

  it("a deleted run is 410 run_deleted after the object and index miss", async () => {
    const { ports, asked } = world({ tombstones: ["acme:gone"] });
    const refused = await findTenantRun(ports, "acme", "gone").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RunDeletedError);
    expect(LittleError.is(refused, "run_deleted")).toBe(true);
    expect(asked).toEqual(["object acme:gone", "index acme:gone", "tombstone acme:gone"]);
  });

  it("an unknown id is 404 run_not_found; another tenant's run, at its object or deleted, is 404 too", async () => {
    const { ports, asked } = world({
      objects: { "acme:r1": requested("acme", "wf.live") },
      rows: [anchorRow("acme", "a1")],
      tombstones: ["acme:gone"],
    });
    for (const [tenant, runId] of [
      ["acme", "nope"],
      ["other", "r1"],
      ["other", "a1"],
      ["other", "gone"],
    ] as const) {
      const refused = await findTenantRun(ports, tenant, runId).catch((e: unknown) => e);
      expect(refused, `${tenant}:${runId}`).toBeInstanceOf(RunNotFoundError);
      expect(refused).toMatchObject({ code: "run_not_found", message: `No run "${runId}"` });
    }
    // The other tenant's object is its own (named by its tenant), so it holds nothing of acme's run.
    expect(asked.filter((a) => a.startsWith("object"))).toEqual([
      "object acme:nope",
      "object other:r1",
      "object other:a1",
      "object other:gone",
    ]);
  });

  it("skips an object whose first event is another tenant's request", async () => {
    const { ports } = world({ objects: { "acme:r1": requested("intruder", "wf.live") } });
    await expect(findTenantRun(ports, "acme", "r1")).rejects.toBeInstanceOf(RunNotFoundError);
  });
});
