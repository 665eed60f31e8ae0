import { APICallError } from "@ai-sdk/provider";
import { RetryError } from "ai";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { ApiError, notFound } from "../../src/api/api-error.ts";
import { ALSO_ANSWERED_WITH, ERROR_STATUS, isErrorCode } from "../../src/api/error-status.ts";
import { errorResponse } from "../../src/api/errors.ts";
import { RunFailure } from "../../src/engine/run-failure.ts";
import { StepAttemptError } from "../../src/engine/step-failure.ts";
import { toRunFailure } from "../../src/engine/to-run-failure.ts";
import { MemoryStoreError } from "../../src/ports/memory-store.ts";
import { APPROVAL_REFUSAL_CODES } from "../../src/sdk/errors/approval-refused-error.ts";
import { BULK_REFUSAL_CODES } from "../../src/sdk/errors/bulk-action-refused-error.ts";
import { CHILD_RUN_REFUSAL_CODES } from "../../src/sdk/errors/child-run-refused-error.ts";
import { DefinitionNotApprovedError } from "../../src/sdk/errors/definition-not-approved-error.ts";
import { EventLogCorruptError } from "../../src/sdk/errors/event-log-corrupt-error.ts";
import { LittleError } from "../../src/sdk/errors/little-error.ts";
import { ModelTimeoutError } from "../../src/sdk/errors/model-timeout-error.ts";
import { QuotaExceededError } from "../../src/sdk/errors/quota-exceeded-error.ts";
import { RUN_END_REFUSAL_CODES } from "../../src/sdk/errors/run-end-refused-error.ts";
import { RUN_FORK_REFUSAL_CODES } from "../../src/sdk/errors/run-fork-refused-error.ts";
import { SIGNAL_REFUSAL_CODES } from "../../src/sdk/errors/signal-refused-error.ts";
import { START_REFUSAL_CODES, StartRefusedError } from "../../src/sdk/errors/start-refused-error.ts";

// Every TypeScript file of the Worker, read as text at build time.
const sources = {
  ...import.meta.glob<string>("../../src/**/*.ts", { query: "?raw", import: "default", eager: true }),
  ...import.meta.glob<string>("../../durable-objects/**/*.ts", { query: "?raw", import: "default", eager: true }),
};

/** The statuses above 499 the table may hold, and why. */
const DOCUMENTED_5XX: Readonly<Record<string, number>> = {
  insecure_configuration: 503, // the deployment holds example values; fixed by the operator
  database_not_migrated: 503, // D1's migrations were not applied; fixed by the operator (the message names the command)
  run_start_unconfirmed: 503, // a start's answer from its run object was lost: retry the same start
  run_failed: 500, // internal: ends a run, never a request
  step_attempt_failed: 500, // internal: never leaves its step
  memory_change_invalid: 500, // internal: memory is checked before it is saved
  internal_error: 500, // a bug
  event_log_corrupt: 500, // a stored event row does not parse: a server-side data fault, answered with its code and seq
};

type NamedClass = { name: string; base: string; file: string; body: string };

/** Every class of the source that extends LittleError, directly or through another named error. */
function namedErrorClasses(): NamedClass[] {
  const all: NamedClass[] = [];
  for (const [file, text] of Object.entries(sources)) {
    for (const m of text.matchAll(/^export (?:abstract )?class (\w+)(?:<[^>]*>)? extends (\w+)(?:<[^>]*>)? \{$/gm)) {
      const start = m.index ?? 0;
      const end = text.indexOf("\n}\n", start);
      all.push({ name: m[1] as string, base: m[2] as string, file, body: text.slice(start, end === -1 ? undefined : end) });
    }
  }
  const named = new Set(["LittleError"]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const c of all)
      if (named.has(c.base) && !named.has(c.name)) {
        named.add(c.name);
        grew = true;
      }
  }
  return all.filter((c) => c.name !== "LittleError" && named.has(c.name));
}

/** The literal code a class declares (`readonly code = "…"`, or the code an ApiError subclass passes up). */
function declaredCode(c: NamedClass): string | undefined {
  return /readonly code = "(\w+)"/.exec(c.body)?.[1] ?? /super\(\s*"(\w+)"/.exec(c.body)?.[1];
}

describe("the error status table", () => {
  it("maps every code to a 4xx, or to a documented 5xx", () => {
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      if (status >= 500) expect(DOCUMENTED_5XX[code], `${code} ${status}`).toBe(status);
      else expect(status, code).toBeGreaterThanOrEqual(400);
      expect(code).toMatch(/^[a-z][a-z0-9_]*$/);
    }
    for (const [code, status] of Object.entries(ALSO_ANSWERED_WITH)) {
      expect(isErrorCode(code)).toBe(true);
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(500);
    }
  });

  it("lists the code of every named error class of the source", () => {
    const classes = namedErrorClasses();
    // The scan must see the errors it is about, or it is blind.
    for (const known of [
      "CanonicalJsonError",
      "RunFailure",
      "StepAttemptError",
      "MemoryStoreError",
      "QuotaExceededError",
      "StoredArtifactTamperedError",
    ])
      expect(classes.map((c) => c.name)).toContain(known);
    for (const c of classes) {
      // Generic over the table's codes: ApiError is checked by the compiler, LittleRpcError carries
      // the code of the error it converts (toRpcError); the refusal classes' code lists (StartRefusedError's, RunForkRefusedError's, BulkActionRefusedError's, the run object's) are checked below.
      if (
        c.name === "ApiError" ||
        c.name === "LittleRpcError" ||
        c.name === "StartRefusedError" ||
        c.name === "RunForkRefusedError" ||
        c.name === "BulkActionRefusedError" ||
        c.name === "SignalRefusedError" ||
        c.name === "ApprovalRefusedError" ||
        c.name === "RunEndRefusedError" ||
        c.name === "ChildRunRefusedError"
      )
        continue;
      const code = declaredCode(c);
      expect(code, `${c.name} (${c.file}) declares no literal code`).toBeDefined();
      expect(isErrorCode(code as string), `${c.name} (${c.file}): code ${code} is not in src/api/error-status.ts`).toBe(true);
    }
  });

  it("has every code the start service refuses with, each a 4xx but the unconfirmed start's 503", () => {
    for (const code of START_REFUSAL_CODES) {
      expect(isErrorCode(code), code).toBe(true);
      expect(ERROR_STATUS[code] < 500 || code === "run_start_unconfirmed", `${code} ${ERROR_STATUS[code]}`).toBe(true);
    }
  });

  it("has every code a restart or fork is refused with, each a 4xx", () => {
    for (const code of RUN_FORK_REFUSAL_CODES) {
      expect(isErrorCode(code), code).toBe(true);
      expect(ERROR_STATUS[code], code).toBeLessThan(500);
    }
  });

  it("has every code a run object refuses a command with (the RunHandle port's named errors)", () => {
    const codes = [...SIGNAL_REFUSAL_CODES, ...APPROVAL_REFUSAL_CODES, ...RUN_END_REFUSAL_CODES, ...CHILD_RUN_REFUSAL_CODES];
    for (const code of codes) expect(isErrorCode(code) && ERROR_STATUS[code] < 500, code).toBe(true);
  });

  it("has every code a bulk action is refused with, each a 422", () => {
    for (const code of BULK_REFUSAL_CODES) expect(isErrorCode(code) && ERROR_STATUS[code], code).toBe(422);
  });

  it("leaves no plain Error subclass in the layers that raise named errors, but the slice's yield", () => {
    // The one pause still thrown: SliceYieldSignal unwinds the drive loop through the AI SDK's own
    // call stack (model middleware), where no return value can pass. A section's wait is returned.
    const allowed = new Set(["LittleError", "SliceYieldSignal"]);
    const seen = new Set<string>();
    for (const [file, text] of Object.entries(sources)) {
      if (!/\/src\/(api|engine|harness|ports|sdk)\//.test(file)) continue;
      for (const m of text.matchAll(/class (\w+) extends Error\b/g)) {
        seen.add(m[1] as string);
        expect(allowed.has(m[1] as string), `${file}: ${m[1]} should be a named error (extends LittleError)`).toBe(true);
      }
    }
    expect(seen).toContain("SliceYieldSignal"); // or the scan is blind
  });
});

describe("the error handler reads the table", () => {
  async function answer(error: unknown): Promise<{ status: number; code: string }> {
    const app = new Hono().get("/", () => {
      throw error;
    });
    app.onError((e, c) => errorResponse(c, e));
    const response = await app.request("/");
    return { status: response.status, code: ((await response.json()) as { error: { code: string } }).error.code };
  }

  it("answers an ApiError and a named error with the status of its code", async () => {
    expect(await answer(new ApiError("run_ended", "ended"))).toEqual({ status: 409, code: "run_ended" });
    expect(await answer(notFound("run", "r1"))).toEqual({ status: 404, code: "run_not_found" });
    expect(await answer(new DefinitionNotApprovedError("w", "sha256:00"))).toEqual({ status: 403, code: "definition_not_approved" });
    expect(await answer(new ApiError("definition_not_approved", "pin", { status: 409 }))).toEqual({
      status: 409,
      code: "definition_not_approved",
    });
  });

  it("sends Retry-After for a refusal that passes with time (a quota, an unconfirmed start)", async () => {
    const app = new Hono().get("/:which", (c) => {
      throw c.req.param("which") === "quota"
        ? new QuotaExceededError("starts_per_minute", 600, 37)
        : new StartRefusedError("run_start_unconfirmed", "lost", { retryAfterSeconds: 1 });
    });
    app.onError((e, c) => errorResponse(c, e));
    const quota = await app.request("/quota");
    expect([quota.status, quota.headers.get("retry-after")]).toEqual([429, "37"]);
    expect(((await quota.json()) as { error: { findings: unknown } }).error.findings).toEqual([
      { severity: "error", code: "quota.starts_per_minute", path: "$", message: "limit 600" },
    ]);
    const unconfirmed = await app.request("/lost");
    expect([unconfirmed.status, unconfirmed.headers.get("retry-after")]).toEqual([503, "1"]);
  });

  it("answers a corrupt event row as a 500 with its own code and seq, not internal_error", async () => {
    const app = new Hono().get("/", () => {
      throw new EventLogCorruptError("run_1", 7, 'unknown event type "Nope"');
    });
    app.onError((e, c) => errorResponse(c, e));
    const response = await app.request("/");
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect([response.status, body.error.code]).toEqual([500, "event_log_corrupt"]);
    expect(body.error.message).toContain("seq 7");
  });

  it("answers an internal named error as a 500 internal_error, like any other bug", async () => {
    const original = console.error;
    console.error = () => undefined;
    try {
      expect(await answer(new RunFailure("step_failed", "x"))).toEqual({ status: 500, code: "internal_error" });
      expect(await answer(new StepAttemptError("tool_failed", "x", false))).toEqual({ status: 500, code: "internal_error" });
      expect(await answer(new Error("x"))).toEqual({ status: 500, code: "internal_error" });
    } finally {
      console.error = original;
    }
  });
});

describe("toRunFailure", () => {
  it("classifies provider errors by the AI SDK's own marker", () => {
    const call = new APICallError({ message: "boom", url: "http://x", requestBodyValues: {}, statusCode: 500 });
    expect(toRunFailure(call)?.causeCode).toBe("model_error");
    expect(toRunFailure(new RetryError({ message: "gave up", reason: "maxRetriesExceeded", errors: [call] }))?.causeCode).toBe(
      "model_error",
    );
    // A plain error is not a model error because of its name: a bug, re-thrown.
    const named = new Error("not from the SDK");
    named.name = "AI_Lookalike";
    expect(toRunFailure(named)).toBeNull();
  });

  it("keeps the causes of named errors, and treats the internal ones as bugs", () => {
    expect(toRunFailure(new ModelTimeoutError(10))?.causeCode).toBe("model_timeout");
    expect(toRunFailure(new RunFailure("input_schema_error", "x"))?.causeCode).toBe("input_schema_error");
    expect(toRunFailure(new DefinitionNotApprovedError("w", "sha256:00"))?.causeCode).toBe("internal_error");
    expect(toRunFailure(new StepAttemptError("tool_failed", "x", false))).toBeNull();
    expect(toRunFailure(new MemoryStoreError("bad path"))).toBeNull();
    expect(LittleError.is(new MemoryStoreError("bad path"))).toBe(true);
  });

  it("records a step attempt under its attempt code, as before", () => {
    expect(new StepAttemptError("tool_failed", "x", true).toRecorded()).toEqual({
      name: "StepAttemptError",
      code: "tool_failed",
      message: "x",
      retriable: true,
    });
  });
});
