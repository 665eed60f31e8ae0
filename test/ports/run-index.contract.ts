import { describe, expect, it } from "vitest";
import type { Digest } from "../../src/json/digest.ts";
import { RUN_STATUS_RANK, type RunStatus } from "../../src/ports/run-events.ts";
import type { RunCursor, RunIndex, RunIndexEntry } from "../../src/ports/run-index.ts";

/** Makes the index under test. Indexes may share data between tests, so every test uses its own tenants. */
export type MakeRunIndex = () => RunIndex | Promise<RunIndex>;

function nonce(): string {
  return crypto.randomUUID().replaceAll("-", "");
}

/** A tenant no other test (or run of this suite) uses. */
function uniqueTenant(label: string): string {
  return `tenant_${label}_${nonce()}`;
}

/** A digest no other test uses. */
function uniqueDigest(): Digest {
  return `sha256:${nonce()}${nonce()}`;
}

/** A `wfver_` id no other test uses. */
function uniqueVersionId(): string {
  return `wfver_${nonce().slice(0, 16)}`;
}

const T0 = 1_700_000_000_000;

/** A full entry with every optional field empty; `overrides` fills in what the test cares about. */
function entry(tenant: string, runId: string, overrides: Partial<RunIndexEntry> = {}): RunIndexEntry {
  return {
    tenant,
    runId,
    workflowId: "support.summarize-ticket",
    status: "pending",
    waitReason: null,
    triggerKind: "http",
    definitionHash: null,
    versionId: null,
    causeCode: null,
    placement: {},
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

const TERMINAL: readonly RunStatus[] = ["completed", "failed", "cancelled"];
const NON_TERMINAL: readonly RunStatus[] = ["pending", "compiling", "running"];

function keys(rows: readonly RunIndexEntry[]): string[] {
  return rows.map((r) => r.runId);
}

function cursorOf(row: RunIndexEntry): RunCursor {
  return { createdAt: row.createdAt, runId: row.runId };
}

/** Newest first: createdAt descending, then runId descending (ids here are ASCII). */
function newestFirst(a: RunIndexEntry, b: RunIndexEntry): number {
  return b.createdAt - a.createdAt || (a.runId < b.runId ? 1 : a.runId > b.runId ? -1 : 0);
}

/**
 * The contract every {@link RunIndex} adapter keeps. Call once per adapter with a factory for the
 * index under test.
 */
export function runIndexContract(name: string, makeIndex: MakeRunIndex): void {
  describe(`RunIndex contract: ${name}`, () => {
    // A fresh index object per test (the data behind it may be shared; tenants are unique per test).
    const fresh = async (): Promise<RunIndex> => makeIndex();

    /** Reads every page of a query with `limit` rows per page, following `before` cursors. */
    async function allPages(index: RunIndex, query: { tenant: string; workflowId?: string; status?: RunStatus }, limit: number) {
      const pages: RunIndexEntry[][] = [];
      let before: RunCursor | undefined;
      for (let i = 0; i < 100; i++) {
        const page = await index.list({ ...query, limit, ...(before ? { before } : {}) });
        if (page.length === 0) break;
        expect(page.length).toBeLessThanOrEqual(limit);
        pages.push(page);
        before = cursorOf(page[page.length - 1] as RunIndexEntry);
      }
      return pages;
    }

    describe("upsert and get", () => {
      it("round-trips every field of a new row, with an empty placement and null optionals", async () => {
        const index = await fresh();
        const tenant = uniqueTenant("rt_empty");
        const row = entry(tenant, "run_a", {
          workflowId: "wf.alpha",
          status: "pending",
          triggerKind: "webhook",
          createdAt: T0 + 5,
          updatedAt: T0 + 6,
        });
        await index.upsert(row);
        const got = await index.get(tenant, "run_a");
        expect(got).toStrictEqual(row);
        expect(got?.placement).toStrictEqual({});
      });

      it("round-trips every field of a new row, with a jurisdiction + location hint and every optional set", async () => {
        const index = await fresh();
        const tenant = uniqueTenant("rt_full");
        const row = entry(tenant, "run_b", {
          workflowId: "wf.beta",
          status: "failed",
          triggerKind: "programmatic",
          definitionHash: uniqueDigest(),
          versionId: uniqueVersionId(),
          causeCode: "model_error",
          placement: { jurisdiction: "eu", locationHint: "weur" },
          createdAt: T0 + 100,
          updatedAt: T0 + 250,
        });
        await index.upsert(row);
        const got = await index.get(tenant, "run_b");
        expect(got).toStrictEqual(row);
        expect(got?.placement).toStrictEqual({ jurisdiction: "eu", locationHint: "weur" });
      });

      it("returns the same row from list as from get", async () => {
        const index = await fresh();
        const tenant = uniqueTenant("rt_list");
        const row = entry(tenant, "run_c", {
          status: "running",
          definitionHash: uniqueDigest(),
          versionId: uniqueVersionId(),
          placement: { jurisdiction: "eu", locationHint: "weur" },
        });
        await index.upsert(row);
        expect(await index.list({ tenant, limit: 10 })).toStrictEqual([row]);
      });

      it("returns null for a run that was never indexed", async () => {
        const index = await fresh();
        const tenant = uniqueTenant("missing");
        expect(await index.get(tenant, "run_nope")).toBeNull();
        await index.upsert(entry(tenant, "run_there"));
        expect(await index.get(tenant, "run_nope")).toBeNull();
        expect(await index.get(uniqueTenant("other"), "run_there")).toBeNull();
      });
    });

    describe("run ids are per tenant", () => {
      it("keeps the same run id under two tenants as two rows", async () => {
        const index = await fresh();
        const a = uniqueTenant("a");
        const b = uniqueTenant("b");
        const rowA = entry(a, "run_shared", {
          workflowId: "wf.a",
          status: "running",
          triggerKind: "http",
          versionId: uniqueVersionId(),
          placement: {},
          createdAt: T0 + 1,
          updatedAt: T0 + 1,
        });
        const rowB = entry(b, "run_shared", {
          workflowId: "wf.b",
          status: "completed",
          triggerKind: "webhook",
          versionId: uniqueVersionId(),
          placement: { jurisdiction: "eu", locationHint: "weur" },
          createdAt: T0 + 2,
          updatedAt: T0 + 3,
        });
        await index.upsert(rowA);
        await index.upsert(rowB);

        expect(await index.get(a, "run_shared")).toStrictEqual(rowA);
        expect(await index.get(b, "run_shared")).toStrictEqual(rowB);
        expect(await index.list({ tenant: a, limit: 10 })).toStrictEqual([rowA]);
        expect(await index.list({ tenant: b, limit: 10 })).toStrictEqual([rowB]);
      });

      it("an update under one tenant leaves the other tenant's row alone", async () => {
        const index = await fresh();
        const a = uniqueTenant("a");
        const b = uniqueTenant("b");
        const rowA = entry(a, "run_shared", { status: "pending" });
        const rowB = entry(b, "run_shared", { status: "pending" });
        await index.upsert(rowA);
        await index.upsert(rowB);
        await index.upsert(entry(a, "run_shared", { status: "failed", causeCode: "model_error", updatedAt: T0 + 9 }));

        expect((await index.get(a, "run_shared"))?.status).toBe("failed");
        expect(await index.get(b, "run_shared")).toStrictEqual(rowB);
      });

      it("never lists another tenant's rows, with or without filters and cursors", async () => {
        const index = await fresh();
        const a = uniqueTenant("a");
        const b = uniqueTenant("b");
        for (let i = 0; i < 4; i++) {
          await index.upsert(entry(a, `run_a${i}`, { status: "running", createdAt: T0 + i }));
          await index.upsert(entry(b, `run_b${i}`, { status: "running", createdAt: T0 + i }));
        }
        const queries = [
          { tenant: a, limit: 100 },
          { tenant: a, workflowId: "support.summarize-ticket", limit: 100 },
          { tenant: a, status: "running" as const, limit: 100 },
          { tenant: a, before: { createdAt: T0 + 10, runId: "run_z" }, limit: 100 },
        ];
        for (const query of queries) {
          const rows = await index.list(query);
          expect(rows).toHaveLength(4);
          expect(rows.every((r) => r.tenant === a)).toBe(true);
        }
        expect(await index.list({ tenant: uniqueTenant("empty"), limit: 100 })).toStrictEqual([]);
      });
    });

    describe("status moves forward only", () => {
      it("ranks failed, completed and cancelled as terminal, above running", () => {
        for (const s of TERMINAL) {
          for (const n of NON_TERMINAL) expect(RUN_STATUS_RANK[s]).toBeGreaterThan(RUN_STATUS_RANK[n]);
          expect(RUN_STATUS_RANK[s]).toBe(RUN_STATUS_RANK.completed);
        }
        expect(RUN_STATUS_RANK.pending).toBeLessThan(RUN_STATUS_RANK.compiling);
        expect(RUN_STATUS_RANK.compiling).toBeLessThan(RUN_STATUS_RANK.running);
      });

      it("keeps completed when a late running write arrives", async () => {
        const index = await fresh();
        const tenant = uniqueTenant("late");
        const versionId = uniqueVersionId();
        await index.upsert(entry(tenant, "run_1", { status: "running", updatedAt: T0 + 1 }));
        const done = entry(tenant, "run_1", { status: "completed", versionId, updatedAt: T0 + 5 });
        await index.upsert(done);
        await index.upsert(entry(tenant, "run_1", { status: "running", causeCode: "model_error", updatedAt: T0 + 9 }));

        const got = await index.get(tenant, "run_1");
        expect(got?.status).toBe("completed");
        // The stale write is ignored as a whole: nothing it carried lands on the row.
        expect(got).toStrictEqual(done);
      });

      for (const terminal of TERMINAL) {
        it(`keeps ${terminal} against every earlier status`, async () => {
          const index = await fresh();
          const tenant = uniqueTenant(`term_${terminal}`);
          const final = entry(tenant, "run_t", {
            status: terminal,
            causeCode: terminal === "failed" ? "model_error" : null,
            updatedAt: T0 + 10,
          });
          await index.upsert(final);
          for (const [i, earlier] of NON_TERMINAL.entries()) {
            await index.upsert(entry(tenant, "run_t", { status: earlier, updatedAt: T0 + 20 + i }));
            expect(await index.get(tenant, "run_t")).toStrictEqual(final);
          }
          expect(await index.list({ tenant, status: terminal, limit: 10 })).toHaveLength(1);
          for (const earlier of NON_TERMINAL) expect(await index.list({ tenant, status: earlier, limit: 10 })).toStrictEqual([]);
        });
      }

      it("walks pending → compiling → running → failed", async () => {
        const index = await fresh();
        const tenant = uniqueTenant("walk");
        const steps: readonly RunStatus[] = ["pending", "compiling", "running", "failed"];
        for (const [i, status] of steps.entries()) {
          await index.upsert(
            entry(tenant, "run_w", { status, causeCode: status === "failed" ? "outer_loop_exhausted" : null, updatedAt: T0 + i }),
          );
          const got = await index.get(tenant, "run_w");
          expect(got?.status).toBe(status);
          expect(got?.updatedAt).toBe(T0 + i);
        }
        expect((await index.get(tenant, "run_w"))?.causeCode).toBe("outer_loop_exhausted");
      });

      it("keeps running when a late pending or compiling write arrives", async () => {
        const index = await fresh();
        const tenant = uniqueTenant("mid");
        await index.upsert(entry(tenant, "run_m", { status: "compiling", updatedAt: T0 + 1 }));
        await index.upsert(entry(tenant, "run_m", { status: "pending", updatedAt: T0 + 2 }));
        expect((await index.get(tenant, "run_m"))?.status).toBe("compiling");
        expect((await index.get(tenant, "run_m"))?.updatedAt).toBe(T0 + 1);

        await index.upsert(entry(tenant, "run_m", { status: "running", updatedAt: T0 + 3 }));
        await index.upsert(entry(tenant, "run_m", { status: "compiling", updatedAt: T0 + 4 }));
        await index.upsert(entry(tenant, "run_m", { status: "pending", updatedAt: T0 + 5 }));
        const got = await index.get(tenant, "run_m");
        expect(got?.status).toBe("running");
        expect(got?.updatedAt).toBe(T0 + 3);
      });

      it("applies a write at the same status (it only refreshes the row)", async () => {
        const index = await fresh();
        const tenant = uniqueTenant("same");
        await index.upsert(entry(tenant, "run_s", { status: "running", updatedAt: T0 + 1 }));
        await index.upsert(entry(tenant, "run_s", { status: "running", updatedAt: T0 + 7 }));
        const got = await index.get(tenant, "run_s");
        expect(got?.status).toBe("running");
        expect(got?.updatedAt).toBe(T0 + 7);
      });
    });

    describe("what an update changes and what it keeps", () => {
      it("keeps a stored definitionHash/versionId when the update carries null, replaces it when not", async () => {
        const index = await fresh();
        const tenant = uniqueTenant("coalesce");
        const hash1 = uniqueDigest();
        const version1 = uniqueVersionId();
        await index.upsert(entry(tenant, "run_h", { status: "pending" }));
        expect(await index.get(tenant, "run_h")).toMatchObject({ definitionHash: null, versionId: null });

        // null → value: set.
        await index.upsert(entry(tenant, "run_h", { status: "compiling", definitionHash: hash1, versionId: version1, updatedAt: T0 + 1 }));
        expect(await index.get(tenant, "run_h")).toMatchObject({ status: "compiling", definitionHash: hash1, versionId: version1 });

        // value, then null: kept.
        await index.upsert(entry(tenant, "run_h", { status: "running", definitionHash: null, versionId: null, updatedAt: T0 + 2 }));
        expect(await index.get(tenant, "run_h")).toMatchObject({
          status: "running",
          definitionHash: hash1,
          versionId: version1,
          updatedAt: T0 + 2,
        });

        // value, then another value: replaced.
        const hash2 = uniqueDigest();
        const version2 = uniqueVersionId();
        await index.upsert(entry(tenant, "run_h", { status: "running", definitionHash: hash2, versionId: version2, updatedAt: T0 + 3 }));
        expect(await index.get(tenant, "run_h")).toMatchObject({ definitionHash: hash2, versionId: version2 });

        // Each of the two is kept or replaced on its own.
        const hash3 = uniqueDigest();
        await index.upsert(entry(tenant, "run_h", { status: "running", definitionHash: hash3, versionId: null, updatedAt: T0 + 4 }));
        expect(await index.get(tenant, "run_h")).toMatchObject({ definitionHash: hash3, versionId: version2 });
        const version3 = uniqueVersionId();
        await index.upsert(entry(tenant, "run_h", { status: "completed", definitionHash: null, versionId: version3, updatedAt: T0 + 5 }));
        expect(await index.get(tenant, "run_h")).toMatchObject({ status: "completed", definitionHash: hash3, versionId: version3 });
      });

      it("replaces causeCode and updatedAt with the update's values", async () => {
        const index = await fresh();
        const tenant = uniqueTenant("cause");
        await index.upsert(entry(tenant, "run_c", { status: "running", causeCode: null, updatedAt: T0 + 1 }));
        await index.upsert(entry(tenant, "run_c", { status: "running", causeCode: "model_unavailable", updatedAt: T0 + 2 }));
        expect(await index.get(tenant, "run_c")).toMatchObject({ causeCode: "model_unavailable", updatedAt: T0 + 2 });
        await index.upsert(entry(tenant, "run_c", { status: "failed", causeCode: "model_error", updatedAt: T0 + 3 }));
        expect(await index.get(tenant, "run_c")).toMatchObject({ status: "failed", causeCode: "model_error", updatedAt: T0 + 3 });
      });

      it("keeps createdAt, workflowId, triggerKind and placement from the first insert", async () => {
        const index = await fresh();
        const tenant = uniqueTenant("first");
        const first = entry(tenant, "run_f", {
          workflowId: "wf.first",
          triggerKind: "webhook",
          placement: { jurisdiction: "eu", locationHint: "weur" },
          status: "pending",
          createdAt: T0 + 10,
          updatedAt: T0 + 10,
        });
        await index.upsert(first);
        const version = uniqueVersionId();
        const hash = uniqueDigest();
        await index.upsert(
          entry(tenant, "run_f", {
            workflowId: "wf.second",
            triggerKind: "http",
            placement: {},
            status: "running",
            definitionHash: hash,
            versionId: version,
            causeCode: null,
            createdAt: T0 + 99,
            updatedAt: T0 + 20,
          }),
        );
        expect(await index.get(tenant, "run_f")).toStrictEqual({
          ...first,
          status: "running",
          definitionHash: hash,
          versionId: version,
          updatedAt: T0 + 20,
        });

        // And the other way round: a first insert with an empty placement is not given one later.
        await index.upsert(entry(tenant, "run_g", { placement: {}, createdAt: T0 + 1 }));
        await index.upsert(
          entry(tenant, "run_g", { placement: { jurisdiction: "eu", locationHint: "weur" }, status: "running", createdAt: T0 + 2 }),
        );
        expect(await index.get(tenant, "run_g")).toMatchObject({ placement: {}, createdAt: T0 + 1, status: "running" });

        // The list (filtered by the first workflowId, ordered by the first createdAt) agrees.
        expect(keys(await index.list({ tenant, workflowId: "wf.first", limit: 10 }))).toStrictEqual(["run_f"]);
        expect(await index.list({ tenant, workflowId: "wf.second", limit: 10 })).toStrictEqual([]);
        expect(keys(await index.list({ tenant, limit: 10 }))).toStrictEqual(["run_f", "run_g"]);
      });
    });

    describe("list", () => {
      it("is newest first by createdAt, then by runId descending", async () => {
        const index = await fresh();
        const tenant = uniqueTenant("order");
        const rows = [
          entry(tenant, "run_b", { createdAt: T0 + 2 }),
          entry(tenant, "run_a", { createdAt: T0 + 3 }),
          entry(tenant, "run_y", { createdAt: T0 + 1 }),
          entry(tenant, "run_c", { createdAt: T0 + 2 }),
          entry(tenant, "run_z", { createdAt: T0 + 1 }),
          entry(tenant, "run_a2", { createdAt: T0 + 2 }),
        ];
        for (const row of rows) await index.upsert(row);
        const listed = await index.list({ tenant, limit: 100 });
        expect(keys(listed)).toStrictEqual(["run_a", "run_c", "run_b", "run_a2", "run_z", "run_y"]);
        expect(listed).toStrictEqual([...rows].sort(newestFirst));
      });

      it("orders by createdAt, not by when the row was last updated", async () => {
        const index = await fresh();
        const tenant = uniqueTenant("byCreated");
        await index.upsert(entry(tenant, "run_old", { createdAt: T0 + 1, updatedAt: T0 + 1 }));
        await index.upsert(entry(tenant, "run_new", { createdAt: T0 + 2, updatedAt: T0 + 2 }));
        await index.upsert(entry(tenant, "run_old", { status: "running", createdAt: T0 + 1, updatedAt: T0 + 50 }));
        expect(keys(await index.list({ tenant, limit: 10 }))).toStrictEqual(["run_new", "run_old"]);
      });

      it("filters by workflowId, by status, and by both", async () => {
        const index = await fresh();
        const tenant = uniqueTenant("filter");
        const rows = [
          entry(tenant, "run_1", { workflowId: "wf.x", status: "running", createdAt: T0 + 1 }),
          entry(tenant, "run_2", { workflowId: "wf.y", status: "running", createdAt: T0 + 2 }),
          entry(tenant, "run_3", { workflowId: "wf.x", status: "completed", createdAt: T0 + 3 }),
          entry(tenant, "run_4", { workflowId: "wf.y", status: "failed", causeCode: "model_error", createdAt: T0 + 4 }),
          entry(tenant, "run_5", { workflowId: "wf.x", status: "failed", causeCode: "model_error", createdAt: T0 + 5 }),
          entry(tenant, "run_6", { workflowId: "wf.x", status: "pending", createdAt: T0 + 6 }),
        ];
        for (const row of rows) await index.upsert(row);

        expect(keys(await index.list({ tenant, workflowId: "wf.x", limit: 100 }))).toStrictEqual(["run_6", "run_5", "run_3", "run_1"]);
        expect(keys(await index.list({ tenant, workflowId: "wf.y", limit: 100 }))).toStrictEqual(["run_4", "run_2"]);
        expect(keys(await index.list({ tenant, status: "running", limit: 100 }))).toStrictEqual(["run_2", "run_1"]);
        expect(keys(await index.list({ tenant, status: "failed", limit: 100 }))).toStrictEqual(["run_5", "run_4"]);
        expect(keys(await index.list({ tenant, workflowId: "wf.x", status: "failed", limit: 100 }))).toStrictEqual(["run_5"]);
        expect(keys(await index.list({ tenant, workflowId: "wf.y", status: "completed", limit: 100 }))).toStrictEqual([]);
        expect(await index.list({ tenant, workflowId: "wf.none", limit: 100 })).toStrictEqual([]);
        expect(await index.list({ tenant, status: "cancelled", limit: 100 })).toStrictEqual([]);

        // A status filter sees the current status, after an update moved it.
        await index.upsert(entry(tenant, "run_1", { workflowId: "wf.x", status: "completed", createdAt: T0 + 1, updatedAt: T0 + 9 }));
        expect(keys(await index.list({ tenant, status: "running", limit: 100 }))).toStrictEqual(["run_2"]);
        expect(keys(await index.list({ tenant, workflowId: "wf.x", status: "completed", limit: 100 }))).toStrictEqual(["run_3", "run_1"]);
      });

      it("keeps a waiting run's reason, filters by it, and clears it when the run moves on", async () => {
        const index = await fresh();
        const tenant = uniqueTenant("wait");
        await index.upsert(entry(tenant, "run_a", { status: "waiting", waitReason: "approval", createdAt: T0 + 1 }));
        await index.upsert(entry(tenant, "run_s", { status: "waiting", waitReason: "sleep", createdAt: T0 + 2 }));
        await index.upsert(entry(tenant, "run_t", { status: "waiting", waitReason: "trigger", createdAt: T0 + 3 }));
        // A reason given with another status is not stored: only a waiting run has one.
        await index.upsert(entry(tenant, "run_r", { status: "running", waitReason: "approval", createdAt: T0 + 4 }));
        expect((await index.get(tenant, "run_r"))?.waitReason).toBeNull();
        expect((await index.get(tenant, "run_a"))?.waitReason).toBe("approval");
        expect(keys(await index.list({ tenant, status: "waiting", limit: 10 }))).toStrictEqual(["run_t", "run_s", "run_a"]);
        expect(keys(await index.list({ tenant, waitReason: "sleep", limit: 10 }))).toStrictEqual(["run_s"]);
        expect(keys(await index.list({ tenant, status: "waiting", waitReason: "approval", limit: 10 }))).toStrictEqual(["run_a"]);
        // Decided: running again (same rank as waiting), the reason gone; then it waits for another reason.
        await index.upsert(entry(tenant, "run_a", { status: "running", createdAt: T0 + 1, updatedAt: T0 + 10 }));
        expect(await index.get(tenant, "run_a")).toMatchObject({ status: "running", waitReason: null });
        expect(keys(await index.list({ tenant, waitReason: "approval", limit: 10 }))).toStrictEqual([]);
        await index.upsert(entry(tenant, "run_a", { status: "waiting", waitReason: "sleep", createdAt: T0 + 1, updatedAt: T0 + 11 }));
        expect(keys(await index.list({ tenant, waitReason: "sleep", limit: 10 }))).toStrictEqual(["run_s", "run_a"]);
        // An end clears it too, and a late waiting write does not bring it back.
        await index.upsert(entry(tenant, "run_s", { status: "completed", createdAt: T0 + 2, updatedAt: T0 + 12 }));
        await index.upsert(entry(tenant, "run_s", { status: "waiting", waitReason: "sleep", createdAt: T0 + 2, updatedAt: T0 + 13 }));
        expect(await index.get(tenant, "run_s")).toMatchObject({ status: "completed", waitReason: null });
      });

      it("returns at most limit rows, the newest ones", async () => {
        const index = await fresh();
        const tenant = uniqueTenant("limit");
        for (let i = 0; i < 5; i++) await index.upsert(entry(tenant, `run_${i}`, { createdAt: T0 + i }));
        expect(keys(await index.list({ tenant, limit: 1 }))).toStrictEqual(["run_4"]);
        expect(keys(await index.list({ tenant, limit: 3 }))).toStrictEqual(["run_4", "run_3", "run_2"]);
        expect(keys(await index.list({ tenant, limit: 5 }))).toHaveLength(5);
        expect(keys(await index.list({ tenant, limit: 50 }))).toHaveLength(5);
        expect(keys(await index.list({ tenant, status: "pending", limit: 2 }))).toStrictEqual(["run_4", "run_3"]);
      });

      it("returns only rows strictly older than the cursor", async () => {
        const index = await fresh();
        const tenant = uniqueTenant("strict");
        await index.upsert(entry(tenant, "run_a", { createdAt: T0 + 1 }));
        await index.upsert(entry(tenant, "run_b", { createdAt: T0 + 2 }));
        await index.upsert(entry(tenant, "run_c", { createdAt: T0 + 2 }));
        await index.upsert(entry(tenant, "run_d", { createdAt: T0 + 3 }));

        expect(keys(await index.list({ tenant, before: { createdAt: T0 + 2, runId: "run_c" }, limit: 10 }))).toStrictEqual([
          "run_b",
          "run_a",
        ]);
        expect(keys(await index.list({ tenant, before: { createdAt: T0 + 2, runId: "run_b" }, limit: 10 }))).toStrictEqual(["run_a"]);
        expect(keys(await index.list({ tenant, before: { createdAt: T0 + 1, runId: "run_a" }, limit: 10 }))).toStrictEqual([]);
        // A cursor need not name a stored row: everything older by (createdAt, runId) comes back.
        expect(keys(await index.list({ tenant, before: { createdAt: T0 + 2, runId: "run_bb" }, limit: 10 }))).toStrictEqual([
          "run_b",
          "run_a",
        ]);
        expect(keys(await index.list({ tenant, before: { createdAt: T0 + 100, runId: "" }, limit: 10 }))).toStrictEqual([
          "run_d",
          "run_c",
          "run_b",
          "run_a",
        ]);
      });

      it("pages with the last row's cursor with no duplicates or gaps, splitting rows with the same createdAt", async () => {
        const index = await fresh();
        const tenant = uniqueTenant("paging");
        // Seven rows at createdAt T0+3, three at T0+2, one at T0+1, one at T0: pages of 3 cut the
        // T0+3 group twice and the T0+2 group once.
        const rows: RunIndexEntry[] = [];
        const createdAts = [T0 + 3, T0 + 3, T0 + 3, T0 + 3, T0 + 3, T0 + 3, T0 + 3, T0 + 2, T0 + 2, T0 + 2, T0 + 1, T0];
        // Insert in an order unrelated to the list order.
        const order = [5, 0, 11, 3, 8, 1, 10, 6, 2, 9, 4, 7];
        for (const i of order) {
          const row = entry(tenant, `run_${String.fromCharCode(97 + ((i * 7) % 12))}${i}`, {
            createdAt: createdAts[i] as number,
            updatedAt: T0 + 100 + i,
          });
          rows.push(row);
          await index.upsert(row);
        }
        const expected = [...rows].sort(newestFirst);

        for (const pageSize of [1, 2, 3, 4, 5, 7, 12, 13]) {
          const pages = await allPages(index, { tenant }, pageSize);
          const flat = pages.flat();
          expect(keys(flat), `page size ${pageSize}`).toStrictEqual(keys(expected));
          expect(flat).toStrictEqual(expected);
          expect(new Set(keys(flat)).size).toBe(expected.length);
          // Every page but the last is full.
          for (const page of pages.slice(0, -1)) expect(page).toHaveLength(pageSize);
          expect(pages).toHaveLength(Math.ceil(expected.length / pageSize));
        }

        // The first page of 3 ends inside the same-createdAt group, and the next page continues it.
        const first = await index.list({ tenant, limit: 3 });
        const last = first[2] as RunIndexEntry;
        const second = await index.list({ tenant, limit: 3, before: cursorOf(last) });
        expect(first.every((r) => r.createdAt === T0 + 3)).toBe(true);
        expect(second.every((r) => r.createdAt === T0 + 3)).toBe(true);
        expect(keys([...first, ...second])).toStrictEqual(keys(expected.slice(0, 6)));
      });

      it("pages through a filtered list the same way", async () => {
        const index = await fresh();
        const tenant = uniqueTenant("pagefilter");
        const rows: RunIndexEntry[] = [];
        for (let i = 0; i < 10; i++) {
          const row = entry(tenant, `run_${i.toString().padStart(2, "0")}`, {
            workflowId: i % 2 === 0 ? "wf.even" : "wf.odd",
            status: i % 3 === 0 ? "failed" : "running",
            createdAt: T0 + Math.floor(i / 4), // groups of four rows share a createdAt
          });
          rows.push(row);
          await index.upsert(row);
        }
        const even = rows.filter((r) => r.workflowId === "wf.even").sort(newestFirst);
        expect(keys((await allPages(index, { tenant, workflowId: "wf.even" }, 2)).flat())).toStrictEqual(keys(even));
        const running = rows.filter((r) => r.status === "running").sort(newestFirst);
        expect(keys((await allPages(index, { tenant, status: "running" }, 3)).flat())).toStrictEqual(keys(running));
        const oddFailed = rows.filter((r) => r.workflowId === "wf.odd" && r.status === "failed").sort(newestFirst);
        expect(oddFailed.length).toBeGreaterThan(1);
        expect(keys((await allPages(index, { tenant, workflowId: "wf.odd", status: "failed" }, 1)).flat())).toStrictEqual(keys(oddFailed));
      });
    });

    describe("tenantUsesVersion", () => {
      it("is true only for the tenant whose run has that versionId", async () => {
        const index = await fresh();
        const a = uniqueTenant("va");
        const b = uniqueTenant("vb");
        const version = uniqueVersionId();
        const otherVersion = uniqueVersionId();
        await index.upsert(entry(a, "run_1", { status: "completed", versionId: version }));
        await index.upsert(entry(b, "run_1", { status: "completed", versionId: otherVersion }));
        await index.upsert(entry(b, "run_2", { status: "running" }));

        expect(await index.tenantUsesVersion(a, version)).toBe(true);
        expect(await index.tenantUsesVersion(b, version)).toBe(false);
        expect(await index.tenantUsesVersion(b, otherVersion)).toBe(true);
        expect(await index.tenantUsesVersion(a, otherVersion)).toBe(false);
        expect(await index.tenantUsesVersion(a, uniqueVersionId())).toBe(false);
        expect(await index.tenantUsesVersion(uniqueTenant("none"), version)).toBe(false);
      });

      it("follows the stored versionId through updates", async () => {
        const index = await fresh();
        const tenant = uniqueTenant("vupd");
        const v1 = uniqueVersionId();
        const v2 = uniqueVersionId();
        await index.upsert(entry(tenant, "run_1", { status: "pending" }));
        expect(await index.tenantUsesVersion(tenant, v1)).toBe(false);

        await index.upsert(entry(tenant, "run_1", { status: "running", versionId: v1 }));
        expect(await index.tenantUsesVersion(tenant, v1)).toBe(true);

        // A null versionId on update keeps v1.
        await index.upsert(entry(tenant, "run_1", { status: "running", versionId: null }));
        expect(await index.tenantUsesVersion(tenant, v1)).toBe(true);

        // Replacing it moves the answer to v2.
        await index.upsert(entry(tenant, "run_1", { status: "completed", versionId: v2 }));
        expect(await index.tenantUsesVersion(tenant, v2)).toBe(true);
        expect(await index.tenantUsesVersion(tenant, v1)).toBe(false);

        // A rejected (stale) write does not set a version either.
        const v3 = uniqueVersionId();
        await index.upsert(entry(tenant, "run_1", { status: "running", versionId: v3 }));
        expect(await index.tenantUsesVersion(tenant, v3)).toBe(false);
        expect(await index.tenantUsesVersion(tenant, v2)).toBe(true);
      });
    });
  });

  describe(`RunIndex contract (anchors): ${name}`, () => {
    it("finds a minted anchor by id alone, and lets exactly one of many concurrent claims win", async () => {
      const index = await makeIndex();
      const tenant = uniqueTenant("anchor");
      const runId = `run_${nonce().slice(0, 24)}`;
      await index.upsert(entry(tenant, runId, { status: "minted", triggerKind: "anchor" }));
      expect(await index.findAnchor(runId)).toMatchObject({ tenant, runId, status: "minted" });
      expect(await index.claimAnchor(uniqueTenant("other"), runId, T0 + 1)).toBe(false);
      const claims = await Promise.all(Array.from({ length: 8 }, () => index.claimAnchor(tenant, runId, T0 + 2)));
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await index.findAnchor(runId)).toBeNull();
      expect(await index.get(tenant, runId)).toMatchObject({ status: "pending", updatedAt: T0 + 2 });
      // The run object's upsert adopts the same row: still one row, moving forward.
      await index.upsert(entry(tenant, runId, { status: "running", updatedAt: T0 + 3 }));
      expect(await index.list({ tenant, limit: 10 })).toHaveLength(1);
    });

    it("a status never moves back to minted", async () => {
      const index = await makeIndex();
      const tenant = uniqueTenant("anchor2");
      await index.upsert(entry(tenant, "r1", { status: "pending" }));
      await index.upsert(entry(tenant, "r1", { status: "minted" }));
      expect((await index.get(tenant, "r1"))?.status).toBe("pending");
    });
  });
}
