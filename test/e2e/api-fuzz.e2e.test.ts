/**
 * API fuzz from the OpenAPI document (issue 15): for every operation in `/v1/openapi.json`, 200+
 * requests drawn from the operation's own schemas, valid and mutated (wrong types, huge values,
 * unicode, missing and extra fields, bad path ids, repeated or long query lists, bad tokens),
 * against a real `wrangler dev`. Every answer must be a status the operation declares, never a
 * 5xx, and a JSON body must match the schema declared for that status.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, INPUT, runOf, SEED_WORKFLOW } from "./support/api.ts";
import {
  mutated,
  type OpenApiDocument,
  type Operation,
  operationsOf,
  pathValue,
  queryValues,
  ResponseChecker,
  valid,
} from "./support/openapi-fuzz.ts";
import { startWranglerDev, type WranglerDev } from "./support/wrangler-dev.ts";

/** Known-good bodies, so the happy paths are fuzzed too (mixed with the generated ones). */
const GOOD_BODIES: Readonly<Record<string, string>> = {
  "POST /v1/workflows/{workflowId}/runs": JSON.stringify({ input: INPUT }),
  "POST /v1/runs/{runId}/triggers": JSON.stringify({ input: INPUT }),
  "POST /v1/tokens": JSON.stringify({ tenant: "fuzz", name: "fuzz", scopes: ["runs:read"] }),
  "PUT /v1/secrets/{name}": JSON.stringify({ value: "fuzz-secret-value" }),
};
/** Requests in flight at once: the Worker is fuzzed under some concurrency too. */
const CONCURRENCY = 6;
const REQUESTS_PER_OPERATION = Number(process.env.LITTLE_FUZZ_REQUESTS ?? 200);
const SEED = Number(process.env.LITTLE_FUZZ_SEED ?? 20261201);

let dev: WranglerDev;
let doc: OpenApiDocument;
/** Real ids for path parameters, by parameter name. */
const pool: Record<string, string[]> = {};

beforeAll(async () => {
  dev = await startWranglerDev();
  const api = client(dev.url, dev.devToken);
  doc = (await api.call("GET", "/v1/openapi.json", { token: null })).json as unknown as OpenApiDocument;
  const started = await api.call("POST", `/v1/workflows/${SEED_WORKFLOW}/runs?wait=30`, { body: { input: INPUT } });
  const run = runOf(started);
  const definition = await api.call("GET", `/v1/workflows/${SEED_WORKFLOW}/definition`);
  const token = await api.call("POST", "/v1/tokens", { token: dev.adminToken, body: { tenant: "fuzz", name: "fuzz" } });
  pool.runId = [run.runId];
  pool.workflowId = [SEED_WORKFLOW, "billing.refund", "support.triage-inbox"];
  pool.versionId = [run.versionId ?? "wfver_0000000000000000"];
  pool.hash = [String((definition.json as { hash?: string }).hash ?? "sha256:0")];
  pool.tokenId = [String((token.json as { id?: string }).id ?? "tok_0")];
  pool.name = ["FUZZ_SECRET"];
  pool.approvalId = ["approval_0"];
}, 180_000);

afterAll(async () => {
  await dev?.dispose();
});

type Request = { url: string; init: RequestInit };

const headerText = fc.stringMatching(/^[\x20-\x7e]{0,60}$/);

function requestsFor(op: Operation): Request[] {
  const pathParams = op.parameters.filter((p) => p.in === "path");
  const queryParams = op.parameters.filter((p) => p.in === "query");
  const headerParams = op.parameters.filter((p) => p.in === "header");
  const good = GOOD_BODIES[`${op.method} ${op.path}`];
  const body: fc.Arbitrary<string | undefined> = op.body
    ? fc.oneof(
        ...(good ? [{ arbitrary: fc.constant(good), weight: 2 }] : []),
        { arbitrary: valid(op.body).map((v) => JSON.stringify(v)), weight: 3 },
        { arbitrary: mutated(op.body).map((v) => JSON.stringify(v)), weight: 3 },
        { arbitrary: fc.constantFrom("{", "not json", "", "[]", "null", '{"input":'), weight: 1 },
      )
    : op.method === "GET"
      ? fc.constant(undefined)
      : fc.constantFrom(undefined, undefined, undefined, '{"unexpected":true}');
  const arbitrary = fc.record({
    path: fc.tuple(...pathParams.map((p) => pathValue(pool[p.name] ?? []))),
    query: fc.tuple(...queryParams.map((p) => queryValues(p))),
    headers: fc.tuple(...headerParams.map(() => fc.option(headerText, { nil: undefined }))),
    body,
    auth: fc.constantFrom("dev", "dev", "dev", "dev", "dev", "dev", "admin", "none", "garbage"),
  });
  return fc.sample(arbitrary, { numRuns: REQUESTS_PER_OPERATION, seed: SEED }).map((r) => {
    let path = op.path;
    pathParams.forEach((p, i) => {
      path = path.replace(`{${p.name}}`, encodeURIComponent(r.path[i] ?? "") || "%20");
    });
    const search = new URLSearchParams();
    queryParams.forEach((p, i) => {
      for (const v of r.query[i] ?? []) search.append(p.name, v);
    });
    const headers: Record<string, string> = {};
    headerParams.forEach((p, i) => {
      const v = r.headers[i];
      if (v !== undefined) headers[p.name] = v;
    });
    const token =
      r.auth === "dev" ? dev.devToken : r.auth === "admin" ? dev.adminToken : r.auth === "garbage" ? "garbage-token" : undefined;
    if (token) headers.authorization = `Bearer ${token}`;
    if (r.body !== undefined) headers["content-type"] = "application/json";
    const query = search.toString();
    return {
      url: `${dev.url}${path}${query ? `?${query}` : ""}`,
      init: { method: op.method, headers, ...(r.body !== undefined ? { body: r.body } : {}) },
    };
  });
}

type Violation = { operation: string; status: number; request: string; problem: string };

describe("API fuzz from /v1/openapi.json", () => {
  it(`${REQUESTS_PER_OPERATION} requests per operation: no 5xx, only declared statuses, bodies match their schemas`, async () => {
    const checker = new ResponseChecker();
    const operations = operationsOf(doc);
    const violations: Violation[] = [];
    const counts: Record<string, Record<string, number>> = {};
    for (const op of operations) {
      const name = `${op.method} ${op.path}`;
      counts[name] = {};
      const check = async (request: Request): Promise<void> => {
        const abort = new AbortController();
        const res = await fetch(request.url, { ...request.init, signal: abort.signal });
        const tally = counts[name] as Record<string, number>;
        tally[res.status] = (tally[res.status] ?? 0) + 1;
        const contentType = res.headers.get("content-type") ?? "";
        let body: unknown;
        if (contentType.includes("text/event-stream")) abort.abort();
        else {
          const text = await res.text();
          if (contentType.includes("json") && text !== "") {
            try {
              body = JSON.parse(text);
            } catch {
              violations.push({
                operation: name,
                status: res.status,
                request: request.url,
                problem: "a JSON content type with a body that is not JSON",
              });
              return;
            }
          }
        }
        const shown = `${request.init.method} ${request.url.slice(dev.url.length, 200)} ${String(request.init.body ?? "").slice(0, 120)}`;
        if (res.status >= 500)
          violations.push({ operation: name, status: res.status, request: shown, problem: JSON.stringify(body).slice(0, 300) });
        // 414 comes from the platform, before the Worker, for a URL over its limit (16 KiB on
        // Cloudflare): not an answer of this API, and not an error of it.
        if (res.status === 414) return;
        const declared = op.responses[String(res.status)] ?? op.responses.default;
        if (!declared) {
          violations.push({
            operation: name,
            status: res.status,
            request: shown,
            problem: `status not declared (${Object.keys(op.responses).join(",")})`,
          });
          return;
        }
        if (declared.schema && body !== undefined) {
          const errors = checker.errors(declared.schema, body);
          if (errors.length > 0)
            violations.push({
              operation: name,
              status: res.status,
              request: shown,
              problem: `body off schema: ${errors.slice(0, 3).join("; ")}`,
            });
        }
      };
      const queue = requestsFor(op);
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          for (let next = queue.shift(); next; next = queue.shift()) await check(next);
        }),
      );
    }
    const requests = Object.values(counts).reduce((n, c) => n + Object.values(c).reduce((a, b) => a + b, 0), 0);
    console.log(JSON.stringify({ fuzz: "api", operations: operations.length, requests, violations: violations.length, counts }));
    // One example per (operation, status, problem kind) keeps the failure readable.
    const seen = new Set<string>();
    const distinct = violations.filter((v) => {
      const key = `${v.operation} ${v.status} ${v.problem.slice(0, 40)}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    expect(distinct).toEqual([]);
    expect(operations.length).toBeGreaterThanOrEqual(25);
    expect(requests).toBeGreaterThanOrEqual(operations.length * REQUESTS_PER_OPERATION);
  }, 900_000);
});
