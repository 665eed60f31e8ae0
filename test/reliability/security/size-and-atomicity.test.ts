import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { D1VersionStore } from "../../../src/adapters/d1/d1-version-store.ts";
import type { MemoryVersionStore } from "../../../src/adapters/memory/memory-version-store.ts";
import { EnvModelResolver } from "../../../src/adapters/models/env-model-resolver.ts";
import { R2BlobStore } from "../../../src/adapters/r2/r2-blob-store.ts";
import { INLINE_OUTPUT_LIMIT, isBlobRef, recordable, resolveRecorded } from "../../../src/engine/blob-refs.ts";
import { runWorkflow } from "../../../src/engine/run-workflow.ts";
import { summarizeTicket } from "../../../src/examples/support-summarize-ticket.ts";
import { digestText } from "../../../src/json/digest.ts";
import { MAX_LWIR_BYTES } from "../../../src/lwir/validate-lwir.ts";
import { overrideWiring } from "../../../src/wiring.ts";
import { MemoryWorld } from "../../../src/worlds/memory-world.ts";
import seedLwir from "../../fixtures/lwir/seed-summarize-ticket.json";
import { rawRunStub, runStub } from "../../support/drive.ts";
import { api } from "./support/api-call.ts";
import { failingD1 } from "./support/failing-d1.ts";
import { reportFigure } from "./support/random.ts";
import { liveSeed } from "./support/seed-lwir.ts";
import { nowSeconds, signDelivery } from "./support/webhook-delivery.ts";

// Item 11 of the reliability suite: outputs just under and over the inline limit, oversized and
// pathological payloads at every entry point (never a 500), and D1 writes that fail halfway
// (no unhandled error, no partial version visible, a retry completes).

const MiB = 1024 * 1024;
const OFFLINE = new EnvModelResolver({ mode: "offline", secrets: {} });

beforeEach(() => overrideWiring({ models: OFFLINE }));
afterEach(() => overrideWiring({}));

/** `{"severity":"low","summary":""}` is 31 bytes: an output of exactly `bytes` canonical bytes. */
const outputOfBytes = (bytes: number) => ({ severity: "low", summary: "x".repeat(bytes - 31) });

describe("outputs at the inline limit", () => {
  it("recordable keeps ≤ limit inline and sends limit+1 to R2 by digest; multi-byte text counts bytes, not characters", async () => {
    const blobs = new R2BlobStore(env.BLOBS, { tenant: "t_size", runId: "run_inline_limit" });
    const cases: [string, unknown, boolean][] = [
      ["limit - 1", outputOfBytes(INLINE_OUTPUT_LIMIT - 1), false],
      ["limit", outputOfBytes(INLINE_OUTPUT_LIMIT), false],
      ["limit + 1", outputOfBytes(INLINE_OUTPUT_LIMIT + 1), true],
      // Half the limit in characters, but two bytes each: over.
      ["é × limit/2", { summary: "é".repeat(INLINE_OUTPUT_LIMIT / 2) }, true],
      ["3 MiB", outputOfBytes(3 * MiB), true],
    ];
    for (const [name, output, offloaded] of cases) {
      const recorded = await recordable(output, blobs);
      expect(isBlobRef(recorded), name).toBe(offloaded);
      expect(await resolveRecorded(recorded, blobs), name).toEqual(output);
    }
    reportFigure("inline limit (unit)", { cases: cases.length, limit: INLINE_OUTPUT_LIMIT });
  });

  it("a run whose code.run output is exactly the limit records it inline; one byte more goes by reference; both end with the full output", async () => {
    const results: Record<string, unknown> = {};
    const seed = await liveSeed();
    for (const [name, bytes] of [
      ["limit", INLINE_OUTPUT_LIMIT],
      ["limit + 1", INLINE_OUTPUT_LIMIT + 1],
    ] as const) {
      const code = "export function run({ input }) { return { severity: 'low', summary: 'x'.repeat(Number(input.ticketId)) }; }";
      const lwir = {
        ...seed.lwir,
        steps: [
          {
            id: "big",
            uses: "code.run",
            needs: [],
            with: {
              entrypoint: "main.js",
              files: { "main.js": { content: code, sha256: digestText(code) } },
              sandbox: { network: "deny", env: "deny", fs: "deny" },
            },
            output: { mode: "object", schema: seed.requestedOutput.schema },
          },
        ],
        input: { schema: seed.inputSchema },
        output: { schema: seed.requestedOutput.schema },
        permissions: { models: [], tools: [], secrets: [], network: [] },
      };
      const runId = `run_size_${crypto.randomUUID().slice(0, 8)}`;
      const r = await api("POST", "/v1/lwir/runs?wait=30", {
        body: JSON.stringify({ lwir, runId, input: { ticketId: String(bytes - 31), transcript: "t" } }),
      });
      expect(r.status, r.text.slice(0, 300)).toBe(200);
      const run = r.json.run as { status: string; output: { summary: string } };
      expect(run.status).toBe("completed");
      expect(run.output.summary.length).toBe(bytes - 31);
      const events = await runStub(runId, "dev").events({ limit: 100, types: ["StepSucceeded", "RunCompleted"] });
      const recorded = events.map((e) => isBlobRef((e.payload as { output: unknown }).output));
      expect(recorded, name).toEqual(bytes > INLINE_OUTPUT_LIMIT ? [true, true] : [false, false]);
      const got = await api("GET", `/v1/runs/${runId}`);
      expect((got.json.run as { output: { summary: string } }).output.summary.length).toBe(bytes - 31);
      results[name] = recorded[0] ? "by reference" : "inline";
    }
    reportFigure("inline limit (run)", results as Record<string, string>);
  });
});

/** A body of `bytes` bytes that is valid JSON for the entry point, padded in a string. */
const padded = (shape: (pad: string) => unknown, bytes: number) => {
  const base = JSON.stringify(shape(""));
  return JSON.stringify(shape("p".repeat(Math.max(0, bytes - base.length))));
};

describe("oversized and pathological payloads at every entry point", () => {
  const LIMIT = 4 * MiB;
  const entryPoints: { name: string; path: string; token?: string | null; shape: (pad: string) => unknown; signed?: boolean }[] = [
    {
      name: "HTTP trigger",
      path: "/v1/workflows/support.summarize-ticket/runs",
      shape: (p) => ({ input: { ticketId: "T", transcript: p } }),
    },
    {
      name: "LWIR run",
      path: "/v1/lwir/runs",
      shape: (p) => ({ lwir: { ...seedLwir, metadata: { ...seedLwir.metadata, description: p } }, input: {} }),
    },
    {
      name: "LWIR validate",
      path: "/v1/lwir/validate",
      shape: (p) => ({ lwir: { ...seedLwir, metadata: { ...seedLwir.metadata, description: p } } }),
    },
    { name: "token create", path: "/v1/tokens", token: "test-admin-token", shape: (p) => ({ tenant: "acme", label: p }) },
    {
      name: "webhook",
      path: "/v1/hooks/support.summarize-ticket",
      token: null,
      signed: true,
      shape: (p) => ({ ticketId: "T", transcript: p }),
    },
  ];

  async function send(entry: (typeof entryPoints)[number], body: string | ReadableStream<Uint8Array>, signBody?: string) {
    const headers =
      entry.signed && signBody !== undefined ? signDelivery(`msg_size_${crypto.randomUUID()}`, signBody, nowSeconds()) : undefined;
    return api("POST", entry.path, {
      body: body as never,
      ...(entry.token !== undefined ? { token: entry.token } : {}),
      ...(headers ? { headers } : {}),
    });
  }

  it("over 4 MiB is 413 payload_too_large everywhere, also streamed without a Content-Length; never a 500", async () => {
    const answers: string[] = [];
    for (const entry of entryPoints) {
      const body = padded(entry.shape, LIMIT + 1);
      const r = await send(entry, body, body);
      expect([entry.name, r.status, r.code]).toEqual([entry.name, 413, "payload_too_large"]);
      const bytes = new TextEncoder().encode(padded(entry.shape, LIMIT + 64 * 1024));
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < bytes.length; at += 64 * 1024) controller.enqueue(bytes.slice(at, at + 64 * 1024));
          controller.close();
        },
      });
      const streamed = await send(entry, stream, new TextDecoder().decode(bytes));
      expect([entry.name, "streamed", streamed.status, streamed.code]).toEqual([entry.name, "streamed", 413, "payload_too_large"]);
      answers.push(`${entry.name}: ${r.status}/${streamed.status}`);
    }
    reportFigure("oversized bodies", { entryPoints: entryPoints.length, answers: answers.join(", ") });
  });

  it("just under 4 MiB, deeply nested, or not UTF-8: a named 2xx/4xx answer, never a 500", async () => {
    const seen: string[] = [];
    for (const entry of entryPoints) {
      const bodies: [string, string | Uint8Array][] = [
        ["4 MiB - 1 KiB", padded(entry.shape, LIMIT - 1024)],
        ["nested 100k deep", `{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}`],
        ["invalid UTF-8", new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
        ["lone surrogate escape", '{"input":{"ticketId":"\\ud800","transcript":"t"},"lwir":{"x":"\\udfff"},"tenant":"\\ud800"}'],
        ["100k keys", `{${Array.from({ length: 100_000 }, (_, i) => `"k${i}":${i}`).join(",")}}`],
      ];
      for (const [name, body] of bodies) {
        const signBody = typeof body === "string" ? body : new TextDecoder().decode(body);
        const r = await send(entry, body as string, signBody);
        seen.push(`${entry.name}/${name}: ${r.status} ${r.code ?? ""}`);
        expect(r.status, `${entry.name}/${name}: ${r.text.slice(0, 300)}`).toBeLessThan(500);
        if (r.status >= 400) expect(r.code, `${entry.name}/${name}`).toMatch(/^[a-z_]+$/);
      }
    }
    reportFigure("pathological bodies", { tried: seen.length, serverErrors: 0 });
  });

  it("an LWIR document over the LWIR limit given in code (no HTTP body limit) fails the run as lwir_invalid, document.too_large", async () => {
    const world = new MemoryWorld({ models: OFFLINE });
    const lwir = { ...seedLwir, metadata: { ...seedLwir.metadata, description: "d".repeat(MAX_LWIR_BYTES) } };
    const r = await runWorkflow(summarizeTicket, { ticketId: "T", transcript: "t" }, { world, lwir, runId: "run_big_lwir" });
    expect(r.status).toBe("failed");
    expect(r.cause?.code).toBe("lwir_invalid");
    expect(JSON.stringify(r.cause)).toContain("document.too_large");
  });
});

/** How a run call ended: resolved with a status, or rejected; and whether the injected failure is named in it. */
async function settle(promise: Promise<{ status: string; cause?: { code: string; message: string } | null }>) {
  try {
    const r = await promise;
    return {
      summary: `${r.status}${r.cause ? ` ${r.cause.code}` : ""}`,
      mentionsInjected: (r.cause?.message ?? "").includes("injected D1 failure"),
    };
  } catch (error) {
    const chain: string[] = [];
    for (let e: unknown = error; e instanceof Error; e = e.cause) chain.push(`${e.name}: ${e.message}`);
    return {
      summary: `rejected (${chain.join(" ← ").slice(0, 200)})`,
      mentionsInjected: chain.some((c) => c.includes("injected D1 failure")),
    };
  }
}

/** The memory world, with its version store replaced by D1 through a failing wrapper. */
class D1World extends MemoryWorld {
  override readonly versions: MemoryVersionStore;
  constructor(store: D1VersionStore) {
    super({ models: OFFLINE });
    this.versions = store as unknown as MemoryVersionStore;
  }
}

/** Runs the seed LWIR against D1 failing at each of its first statements, then again healthy. */
async function failHalfway() {
  const outcomes: string[] = [];
  const retried: string[] = [];
  const partial: string[] = [];
  const seed = await liveSeed();
  // The compile writes definition, version and lock (a planner run also its manifest): fail each in turn.
  for (let failAt = 1; failAt <= 4; failAt++) {
    const runId = `run_d1fail_${failAt}_${crypto.randomUUID().slice(0, 6)}`;
    const input = { ticketId: "T-1", transcript: "Refunds are stuck." };
    // A unique description makes a unique version, so rows of other runs cannot hide a partial write.
    const lwir = { ...seed.lwir, metadata: { ...seed.lwir.metadata, description: `size test ${runId}` } };
    const counter = { executed: 0, attempted: 0 };
    const world = new D1World(new D1VersionStore(failingD1(env.DB, failAt, counter)));
    // The memory world does not retry (the run object does, from its alarm): a failed write either
    // fails the run with a named cause or rejects with the D1 error itself, never anything else.
    const first = await settle(runWorkflow(summarizeTicket, input, { world, runId, lwir }));
    outcomes.push(`statement ${failAt}: ${first.summary.slice(0, 80)}`);
    if (counter.attempted >= failAt) expect(first.mentionsInjected, `fail at ${failAt}: ${first.summary}`).toBe(true);
    const rows = await env.DB.prepare(
      "SELECT v.id AS id, (SELECT COUNT(*) FROM compiler_locks l WHERE l.version_id = v.id) AS locks FROM workflow_versions v WHERE v.canonical_json LIKE ?",
    )
      .bind(`%size test ${runId}%`)
      .all<{ id: string; locks: number }>();
    for (const row of rows.results) if (row.locks === 0) partial.push(`statement ${failAt}: ${row.id} has no lock`);
    // The same run again, the wrapper now past its failure: it completes, version and lock whole.
    const retry = await settle(runWorkflow(summarizeTicket, input, { world, runId, lwir }));
    retried.push(retry.summary);
    expect(retry.summary, `retry after ${failAt}`).toBe("completed");
    const after = await env.DB.prepare("SELECT id FROM workflow_versions WHERE canonical_json LIKE ?")
      .bind(`%size test ${runId}%`)
      .first<{ id: string }>();
    expect(after, `version after retry ${failAt}`).not.toBeNull();
    const healthy = new D1VersionStore(env.DB);
    expect((await healthy.locksOf(after?.id ?? "")).length, `locks after retry ${failAt}`).toBeGreaterThan(0);
  }
  return { outcomes, retried, partial };
}

describe("a D1 write that fails halfway", () => {
  it("no unhandled error: the failure is named (rejection or failed run), and the same run again completes with version and lock whole", async () => {
    const { outcomes, retried, partial } = await failHalfway();
    reportFigure("D1 failing halfway", {
      failurePoints: 4,
      partialVersionsSeenBeforeRetry: partial.length,
      outcomes: outcomes.join("; "),
      retries: retried.join("; "),
    });
  });

  // Was a bug, fixed: putVersion, putLock and putPlannerManifest were separate D1 statements, so a
  // failure on the lock insert left a version row with no lock until a retry. compile-cycle now
  // calls VersionStore.registerVersion, one D1 batch (one transaction) for all three.
  it("no version row is ever visible without its lock", async () => {
    const { partial } = await failHalfway();
    expect(partial).toEqual([]);
  });
});

describe("input refused at the entry point leaves nothing behind", () => {
  // Was a bug, fixed in durable-objects/run.ts: start() armed the alarm before appending
  // RunRequested, whose canonicalization refuses a lone surrogate, leaving an alarm over an empty
  // log. start() now canonicalizes the input before arming anything.
  it("an input with a lone surrogate is refused with 400 and leaves no run object alarm", async () => {
    const runId = `run_surrogate_${crypto.randomUUID().slice(0, 8)}`;
    const r = await api("POST", "/v1/workflows/support.summarize-ticket/runs", {
      body: `{"runId":"${runId}","input":{"ticketId":"\\ud800","transcript":"t"}}`,
    });
    expect([r.status, r.code]).toEqual([400, "canonical_json_rejected"]);
    const alarm = await runInDurableObject(rawRunStub(runId, "dev"), (_instance, state) => state.storage.getAlarm());
    expect(alarm).toBeNull();
  });
});
