/**
 * The OpenAPI document as a generated client sees it: every operation named (a unique camelCase
 * `operationId`) and tagged, Spectral's `oas` ruleset clean, and a client generated from it by
 * `openapi-typescript` that type-checks real calls. The document is built in Node from the app
 * itself (no `wrangler dev`): the few Cloudflare modules the wiring imports are stubbed, and
 * nothing here runs a request past the document route.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { Document, Spectral } from "@stoplight/spectral-core";
import * as Parsers from "@stoplight/spectral-parsers";
import { oas } from "@stoplight/spectral-rulesets";
import openapiTS, { astToString } from "openapi-typescript";
import { beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("cloudflare:workers", () => ({ env: {}, exports: {}, DurableObject: class {}, WorkerEntrypoint: class {} }));
vi.mock("@cloudflare/sandbox", () => ({ Sandbox: class {}, getSandbox: () => ({}) }));
vi.mock("@cloudflare/containers", () => ({ Container: class {}, getContainer: () => ({}) }));

const REPO = resolve(import.meta.dirname, "../..");
/** The client's types, generated from this document (src/client/api-types.ts names them). */
const GENERATED = join(REPO, "src/client/openapi.generated.ts");

const BANNER = `/**
 * The /v1 API's types, generated from /v1/openapi.json by openapi-typescript: do not edit.
 * test/api/openapi.node.test.ts fails when they drift from the document; regenerate with
 * \`npx vitest run --project node test/api/openapi.node.test.ts -u\`.
 */
`;

type Operation = { operationId?: string; tags?: string[]; summary?: string; description?: string };
type OpenApiDocument = {
  paths: Record<string, Record<string, Operation>>;
  tags?: { name: string; description?: string }[];
  servers?: { url: string }[];
};

let doc: OpenApiDocument;
let operations: { method: string; path: string; op: Operation }[];

beforeAll(async () => {
  const { app } = await import("../../src/api/app.ts");
  const response = await app.request("https://little.example/v1/openapi.json", {}, { LITTLE_ENV: "development" });
  expect(response.status).toBe(200);
  doc = (await response.json()) as OpenApiDocument;
  operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ method, path, op })));
}, 60_000);

describe("OpenAPI names", () => {
  it("every operation has a unique camelCase operationId, a declared tag, a summary and a description", () => {
    expect(operations.length).toBeGreaterThanOrEqual(28);
    const ids = operations.map((o) => o.op.operationId);
    expect(ids.filter((id) => typeof id !== "string" || !/^[a-z][A-Za-z0-9]*$/.test(id))).toEqual([]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    const declared = new Set((doc.tags ?? []).map((t) => t.name));
    for (const { method, path, op } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(op.tags?.length, where).toBeGreaterThan(0);
      for (const tag of op.tags ?? []) expect(declared, `${where} tag ${tag}`).toContain(tag);
      expect(op.summary, where).toBeTruthy();
      expect(op.description, where).toBeTruthy();
    }
    // A declared tag no operation uses is noise in a generated client.
    const used = new Set(operations.flatMap((o) => o.op.tags ?? []));
    expect([...declared].filter((t) => !used.has(t))).toEqual([]);
  });

  it("keeps the names generated clients already use (renaming one breaks their method names)", () => {
    const byRoute = Object.fromEntries(operations.map((o) => [`${o.method} ${o.path}`, o.op.operationId]));
    expect(byRoute).toMatchObject({
      "post /v1/workflows/{workflowId}/runs": "startRun",
      "get /v1/runs/{runId}": "getRun",
      "get /v1/runs": "listRuns",
      "post /v1/runs/{runId}/cancel": "cancelRun",
      "get /v1/runs/{runId}/events": "listRunEvents",
      "get /v1/runs/{runId}/events/stream": "streamRunEvents",
      "get /v1/runs/{runId}/stream": "streamRun",
      "post /v1/runs/{runId}/triggers": "triggerRun",
      "get /v1/runs/{runId}/approvals": "listApprovals",
      "post /v1/runs/{runId}/approvals/{approvalId}": "decideApproval",
      "post /v1/lwir/runs": "startLwirRun",
      "post /v1/hooks/{workflowId}": "receiveWebhook",
    });
  });

  it("names the Worker that served it as the server", () => {
    expect(doc.servers?.map((s) => s.url)).toEqual(["https://little.example"]);
  });

  it("passes Spectral's oas ruleset with no errors and only the warning docs/api.md justifies", async () => {
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [[oas as never, "recommended"]] });
    const results = await spectral.run(new Document(JSON.stringify(doc, null, 2), Parsers.Json, "openapi.json"));
    const found = results.map((r) => `${r.code} (${["error", "warning", "info", "hint"][r.severity]}) at ${r.path.join(".")}`);
    // info-contact: the document is served by each team's own Worker; there is no one contact to name.
    expect(found).toEqual(["info-contact (warning) at info"]);
  });
});

describe("a client generated by openapi-typescript", () => {
  let generated: string;
  beforeAll(async () => {
    generated = `${BANNER}${astToString(await openapiTS(doc as never))}`;
  });

  it("is the one src/client/ is typed with (regenerate: this file with -u)", async () => {
    await expect(generated).toMatchFileSnapshot(GENERATED);
  });

  it("type-checks calls made with openapi-fetch, and refuses wrong ones", async () => {
    // Inside the repository, so `openapi-fetch` and `typescript` resolve from its node_modules.
    await mkdir(join(REPO, "node_modules/.cache"), { recursive: true });
    const dir = await mkdtemp(join(REPO, "node_modules/.cache/little-openapi-"));
    try {
      await writeFile(join(dir, "paths.ts"), generated);
      await writeFile(join(dir, "calls.ts"), CALLS);
      await writeFile(
        join(dir, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            target: "ES2022",
            module: "ESNext",
            moduleResolution: "Bundler",
            lib: ["ES2022", "DOM"],
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            allowImportingTsExtensions: true,
            types: [],
          },
          files: ["calls.ts"],
        }),
      );
      const tsc = join(REPO, "node_modules/typescript/lib/tsc.js");
      const result = await new Promise<{ code: number; out: string }>((done) =>
        execFile(process.execPath, [tsc, "-p", dir], (error, stdout, stderr) =>
          done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
        ),
      );
      expect(result.out).toBe("");
      expect(result.code).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

/** Calls a user of a generated client writes; every `@ts-expect-error` must be an error, or tsc fails. */
const CALLS = `import createClient from "openapi-fetch";
import type { paths } from "./paths.ts";

const api = createClient<paths>({ baseUrl: "http://localhost:8787", headers: { authorization: "Bearer dev-token" } });

export async function calls(): Promise<string[]> {
  const out: string[] = [];
  const started = await api.POST("/v1/workflows/{workflowId}/runs", {
    params: { path: { workflowId: "support.summarize-ticket" }, query: { wait: 30 }, header: { "idempotency-key": "ticket-1" } },
    body: { input: { ticketId: "T-1" }, runId: "run_1", location: "weur" },
  });
  if (started.data) {
    const status: "minted" | "pending" | "compiling" | "running" | "waiting" | "paused" | "completed" | "failed" | "cancelled" = started.data.run.status;
    const stream: string = started.data.links.stream;
    out.push(status, stream);
  } else if (started.error) {
    const code: string = started.error.error.code;
    out.push(code);
  }
  const run = await api.GET("/v1/runs/{runId}", { params: { path: { runId: "run_1" } } });
  out.push(run.data?.run.cause?.code ?? "", String(run.data?.run.usage?.totalTokens ?? 0));
  const page = await api.GET("/v1/runs", { params: { query: { status: "completed", limit: 10 } } });
  for (const summary of page.data?.runs ?? []) out.push(summary.runId, summary.workflowId);
  out.push(page.data?.nextCursor ?? "");
  const events = await api.GET("/v1/runs/{runId}/events", { params: { path: { runId: "run_1" }, query: { after: 0, type: "Run*" } } });
  for (const event of events.data?.events ?? []) out.push(String(event.seq), event.type);
  const decided = await api.POST("/v1/runs/{runId}/approvals/{approvalId}", {
    params: { path: { runId: "run_1", approvalId: "apr_1" } },
    body: { decision: "approve", argsHash: "sha256:00" },
  });
  out.push(decided.data?.approval.status ?? "");
  await api.POST("/v1/runs/{runId}/cancel", { params: { path: { runId: "run_1" } } });

  // @ts-expect-error: status is one of the run statuses
  await api.GET("/v1/runs", { params: { query: { status: "done" } } });
  // @ts-expect-error: a decision is approve or deny
  await api.POST("/v1/runs/{runId}/approvals/{approvalId}", { params: { path: { runId: "r", approvalId: "a" } }, body: { decision: "maybe", argsHash: "x" } });
  // @ts-expect-error: the path needs its runId
  await api.GET("/v1/runs/{runId}", { params: { path: {} } });
  // @ts-expect-error: no such route
  await api.GET("/v1/run");
  // @ts-expect-error: a run's status is not a number
  const wrong: number = run.data?.run.status ?? 0;
  out.push(String(wrong));
  return out;
}
`;
