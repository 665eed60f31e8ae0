/** The sections list's page: newest first merged across unfinished statuses, filtered, resumable by cursor. */
import { describe, expect, it } from "vitest";
import { MemoryRunIndex } from "../../src/adapters/memory/memory-run-index.ts";
import type { ApiServices } from "../../src/api/api-env.ts";
import { unfinishedPage } from "../../src/api/section-list.ts";
import type { Digest } from "../../src/json/digest.ts";
import type { RunCursor, RunIndexEntry } from "../../src/ports/run-index.ts";
import type { RunStatus } from "../../src/ports/run-status.ts";

const STATUSES: RunStatus[] = ["waiting", "running", "pending", "compiling", "completed", "failed", "minted", "cancelled"];

async function indexWith(n: number): Promise<{ services: ApiServices; rows: RunIndexEntry[] }> {
  const runs = new MemoryRunIndex();
  const rows: RunIndexEntry[] = [];
  for (let i = 0; i < n; i++) {
    const row: RunIndexEntry = {
      tenant: "t",
      runId: `run_${String(i).padStart(4, "0")}`,
      workflowId: "w",
      status: STATUSES[i % STATUSES.length] as RunStatus,
      triggerKind: "http",
      // Every third row is under an old definition.
      definitionHash: (i % 3 === 0 ? "sha256:old" : "sha256:live") as Digest,
      versionId: null,
      causeCode: null,
      placement: {},
      createdAt: 1_000 + Math.floor(i / 2), // pairs share a createdAt: the runId breaks the tie
      updatedAt: 1_000,
    };
    await runs.upsert(row);
    rows.push(row);
  }
  return { services: { runs } as unknown as ApiServices, rows };
}

async function all(services: ApiServices, limit: number, keep: (r: RunIndexEntry) => boolean) {
  const seen: string[] = [];
  let before: RunCursor | undefined;
  for (let pages = 0; pages < 500; pages++) {
    const { rows, next } = await unfinishedPage(services, { tenant: "t", workflowId: "w", limit, keep, ...(before ? { before } : {}) });
    expect(rows.length).toBeLessThanOrEqual(limit);
    seen.push(...rows.map((r) => r.runId));
    if (!next) return { seen, pages: pages + 1 };
    before = next;
  }
  throw new Error("no end");
}

describe("unfinishedPage", () => {
  it("lists every unfinished row once, newest first across statuses, in pages of the limit", async () => {
    const { services, rows } = await indexWith(500); // far past the old 200-per-status cut-off
    const unfinished = rows
      .filter((r) => ["waiting", "running", "pending", "compiling"].includes(r.status))
      .sort((a, b) => b.createdAt - a.createdAt || (a.runId < b.runId ? 1 : -1))
      .map((r) => r.runId);
    const { seen, pages } = await all(services, 7, () => true);
    expect(seen).toEqual(unfinished);
    expect(pages).toBe(Math.ceil(unfinished.length / 7));
  });

  it("filters (stale only) without losing or repeating a row across pages", async () => {
    const { services, rows } = await indexWith(300);
    const stale = rows
      .filter((r) => ["waiting", "running", "pending", "compiling"].includes(r.status) && r.definitionHash === "sha256:old")
      .sort((a, b) => b.createdAt - a.createdAt || (a.runId < b.runId ? 1 : -1))
      .map((r) => r.runId);
    const { seen } = await all(services, 5, (r) => r.definitionHash === "sha256:old");
    expect(seen).toEqual(stale);
  });
});
