/**
 * Reliability item 10: the paths where a secret got out — all five fixed (blob outputs, base64 off a
 * 3-byte boundary, planner literals, memory saves, the run object's logs; RELIABILITY.md row 10) — and
 * two error paths that hold. Each test says what it expects the system to do.
 */
import { APICallError } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { catalogOf } from "../../../src/engine/run-environment.ts";
import { overrideWiring } from "../../../src/wiring.ts";
import { call } from "../../api/support/api-call.ts";
import { driveToEnd } from "../../support/drive.ts";
import { result } from "../../support/scripted-models.ts";
import { hijackedPlanner, leakingWorker, resolverOf } from "./support/adversarial-models.ts";
import { echoStep, guardedArgs, injectionLwir, injectionWorkflow, leakStep } from "./support/injection-workflow.ts";
import { formsFound, secretForms } from "./support/secret-forms.ts";
import { tenantWithSecret } from "./support/secret-tenant.ts";
import { servedFor } from "./support/served.ts";
import { dumpBlobs, dumpD1Tables, dumpRunObject } from "./support/storage-dump.ts";

afterEach(() => overrideWiring({}));

type RunBody = { runId: string; status: string };

/** The forms of the secret found, by where: each D1 table, the blob bucket, the run object, and served. */
async function leakedForms(runId: string, tenant: string, token: string, secret: string): Promise<Record<string, string[]>> {
  const places: Record<string, string> = {
    ...Object.fromEntries(Object.entries(await dumpD1Tables()).map(([name, text]) => [`d1:${name}`, text])),
    blobs: await dumpBlobs(),
    runObject: await dumpRunObject(runId, tenant),
    served: (await servedFor(runId, token, true)).join("\n"),
  };
  return Object.fromEntries(
    Object.entries(places).flatMap(([place, text]) => {
      const found = formsFound(text, secret);
      return found.length > 0 ? [[place, found]] : [];
    }),
  );
}

describe("secret leaks (item 10)", () => {
  // LEAK 1, fixed. `recordable` (src/engine/blob-refs.ts) wrote an output over 256 KiB to the blob
  // store *before* the redactor ran, so the R2 object held the secret and `GET /v1/runs/:id` served
  // it. It now redacts the value itself before storing it.
  it("a tool output over the inline limit that carries the secret is neither stored in the blob bucket nor served", async () => {
    const { tenant, token, secret } = await tenantWithSecret("big");
    const worker = leakingWorker(() => secret, 1, false);
    overrideWiring({ models: resolverOf(worker, worker), workflows: catalogOf([injectionWorkflow]) });
    const r = await call("POST", "/v1/lwir/runs?wait=20", {
      token,
      body: { lwir: await injectionLwir([leakStep], ["leak"], []), input: { mode: "big", seed: 1 } },
    });
    const run = r.json.run as RunBody;
    expect(run.status).toBe("completed");
    expect(await leakedForms(run.runId, tenant, token, secret)).toEqual({});
  });

  // LEAK 2, fixed. The redactor searched for base64 of the secret alone, a substring of
  // base64(prefix + secret) only when the prefix is a multiple of 3 bytes. It now also searches the
  // characters that depend only on the secret at each of the three alignments.
  it("base64 of a text that contains the secret off a 3-byte boundary (a Basic auth header) is not stored or served", async () => {
    const { tenant, token, secret } = await tenantWithSecret("basic");
    const worker = leakingWorker(() => secret, 1, false);
    overrideWiring({ models: resolverOf(worker, worker), workflows: catalogOf([injectionWorkflow]) });
    const r = await call("POST", "/v1/lwir/runs?wait=20", {
      token,
      body: { lwir: await injectionLwir([leakStep], ["leak"], []), input: { mode: "basic", seed: 1 } },
    });
    const run = r.json.run as RunBody;
    expect(run.status).toBe("completed");
    const offsets = [btoa(`x${secret}`), btoa(`xy${secret}`)];
    const text = [(await servedFor(run.runId, token, true)).join("\n"), await dumpRunObject(run.runId, tenant)].join("\n");
    expect(offsets.filter((form) => text.includes(form))).toEqual([]);
  });

  // LEAK 3, fixed. A planner that wrote the secret as a literal into a permitted tool's `with.input`
  // got its LWIR accepted, stored unredacted in D1 `workflow_versions` and served by
  // `GET /v1/versions/:id`. `submit_lwir` now refuses such a draft (`planner.secret_literal`), so the
  // planner revises it and nothing holding the secret is stored.
  it("a planner that writes the secret into a permitted tool's arguments is refused, revises, and nothing is stored or served", async () => {
    const { tenant, token, secret } = await tenantWithSecret("args");
    const forms = secretForms(secret);
    const draftWith = (note: string, encoded: string) =>
      injectionLwir(
        [{ id: "note", uses: "tool.call", needs: [], with: { tool: "guarded", input: { note, encoded } }, output: { mode: "json" } }],
        ["guarded"],
        [],
      );
    const leaking = await draftWith(`token ${secret}`, (forms[1] as { text: string }).text);
    const clean = await draftWith("token from permissions", "none");
    const planner = hijackedPlanner(() => secret, [() => leaking, () => clean]);
    const worker = leakingWorker(() => secret, 1, false);
    overrideWiring({ models: resolverOf(planner, worker), workflows: catalogOf([injectionWorkflow]) });
    const calls = guardedArgs.length;
    const r = await call("POST", "/v1/workflows/inject.secrets/runs?wait=30", { token, body: { input: { mode: "return", seed: 1 } } });
    const run = r.json.run as RunBody;
    expect(run.status, r.text).toBe("completed");
    expect(guardedArgs.length).toBe(calls + 1);
    const events = (await call("GET", `/v1/runs/${run.runId}/events?limit=1000`, { token })).text;
    expect(events).toContain("planner.secret_literal");
    expect(await leakedForms(run.runId, tenant, token, secret)).toEqual({});
  });

  it("a worker model whose call throws an error that is not an API error, quoting the secret: nothing stored or served", async () => {
    const { tenant, token, secret } = await tenantWithSecret("throw");
    const worker = new MockLanguageModelV4({
      provider: "openai.chat",
      modelId: "gpt-4o-mini",
      doGenerate: async () => {
        throw new Error(`provider rejected key ${secret}`);
      },
    });
    overrideWiring({ models: resolverOf(worker, worker), workflows: catalogOf([injectionWorkflow]) });
    const r = await call("POST", "/v1/lwir/runs", {
      token,
      body: { lwir: await injectionLwir([leakStep, echoStep], ["leak"]), input: { mode: "return", seed: 1 } },
    });
    const runId = (r.json.run as RunBody).runId;
    const ended = await driveToEnd(runId, 12, tenant);
    expect(ended.status).toBe("failed");
    expect(await leakedForms(runId, tenant, token, secret)).toEqual({});
  });

  it("a worker model whose call fails with an API error quoting the secret (message, URL, body): nothing stored or served", async () => {
    const { tenant, token, secret } = await tenantWithSecret("api");
    const worker = new MockLanguageModelV4({
      provider: "openai.chat",
      modelId: "gpt-4o-mini",
      doGenerate: async () => {
        throw new APICallError({
          message: `401 for key ${secret}`,
          url: `https://api.example/?key=${encodeURIComponent(secret)}`,
          requestBodyValues: { key: secret },
          statusCode: 401,
          responseBody: `{"error":"bad key ${secret}"}`,
          isRetryable: false,
        });
      },
    });
    overrideWiring({ models: resolverOf(worker, worker), workflows: catalogOf([injectionWorkflow]) });
    const r = await call("POST", "/v1/lwir/runs?wait=20", {
      token,
      body: { lwir: await injectionLwir([leakStep, echoStep], ["leak"]), input: { mode: "return", seed: 1 } },
    });
    const run = r.json.run as RunBody;
    expect(run.status).toBe("failed");
    expect(await leakedForms(run.runId, tenant, token, secret)).toEqual({});
  });

  // LEAK 4, fixed (issue 15). `RunObject.onDriveError` (durable-objects/run.ts) passed the raw error
  // of a failed drive slice to `console.error`, unredacted: a model call that throws a plain Error
  // quoting the secret wrote it to the Worker's logs (Workers Logs / `wrangler tail`). The logged
  // text (and the run object's own RunFailed) now goes through the run's redactor
  // (test/reliability/security/run-object-redaction.test.ts covers the RunFailed side).
  it("a worker model error quoting the secret is not written to the Worker's logs", async () => {
    const { tenant, token, secret } = await tenantWithSecret("logs");
    const worker = new MockLanguageModelV4({
      provider: "openai.chat",
      modelId: "gpt-4o-mini",
      doGenerate: async () => {
        throw new Error(`provider rejected key ${secret}`);
      },
    });
    overrideWiring({ models: resolverOf(worker, worker), workflows: catalogOf([injectionWorkflow]) });
    const logged: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
      logged.push(args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack ?? ""}` : String(a))).join(" "));
    });
    try {
      const r = await call("POST", "/v1/lwir/runs", {
        token,
        body: { lwir: await injectionLwir([leakStep, echoStep], ["leak"]), input: { mode: "return", seed: 1 } },
      });
      expect((await driveToEnd((r.json.run as RunBody).runId, 12, tenant)).status).toBe("failed");
    } finally {
      spy.mockRestore();
    }
    expect(formsFound(logged.join("\n"), secret)).toEqual([]);
  });

  // LEAK 5, fixed. A planner's `bash` runs with the workflow's memory store mounted read-write (the
  // default); what a command wrote under /mnt/memory/workflow was saved to D1 `memory_files` as
  // written. Memory saves now pass through the run's redactor.
  it("a hijacked planner that writes the secret into the workflow's read-write memory gets nothing stored", async () => {
    const { tenant, token, secret } = await tenantWithSecret("memory");
    const valid = await injectionLwir([leakStep], ["leak"], []);
    const planner = new MockLanguageModelV4({
      provider: "openai.responses",
      modelId: "gpt-5",
      doGenerate: async (options) => {
        const turn = options.prompt.filter((m) => m.role === "assistant").length + 1;
        if (turn === 1) {
          const command = `mkdir -p /mnt/memory/workflow && echo '${secret}' > /mnt/memory/workflow/notes.md && echo '${btoa(secret)}' >> /mnt/memory/workflow/notes.md`;
          return result([{ type: "tool-call", toolCallId: "mem-1", toolName: "bash", input: JSON.stringify({ command }) }]);
        }
        return result([{ type: "tool-call", toolCallId: `mem-${turn}`, toolName: "submit_lwir", input: JSON.stringify({ lwir: valid }) }]);
      },
    });
    const worker = leakingWorker(() => secret, 1, false);
    overrideWiring({ models: resolverOf(planner, worker), workflows: catalogOf([injectionWorkflow]) });
    const r = await call("POST", "/v1/workflows/inject.secrets/runs?wait=30", { token, body: { input: { mode: "return", seed: 2 } } });
    const run = r.json.run as RunBody;
    expect(run.status, r.text).toBe("completed");
    expect(await leakedForms(run.runId, tenant, token, secret)).toEqual({});
  });
});
