import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { checkSandbox } from "../../src/engine/sandbox-check.ts";
import type { Sandbox } from "../../src/ports/sandbox.ts";
import { CODE_RUNNER_REMEDY } from "../../src/ports/sandbox-check.ts";

describe("GET /v1/health/sandbox (the deploy's smoke check)", () => {
  it("runs a bash command and a code.run through the configured sandbox, with no token, through the real Worker", async () => {
    const res = await exports.default.fetch("http://little.test/v1/health/sandbox");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ sandbox: "isolate", ok: true, bashMs: expect.any(Number), codeRunMs: expect.any(Number) });
  });

  it("a sandbox that refuses commands is code_runner_unavailable with the remedy, for bash and for code.run", async () => {
    const refusing = (exitCode: number, codeOk: boolean): Sandbox => ({
      openSession: async () => ({
        exec: async () => ({ exitCode, stdout: exitCode === 0 ? "ok\n" : "", stderr: exitCode === 0 ? "" : "little.sh: cannot unshare" }),
        readFile: async () => null,
        writeFile: async () => {},
        snapshotScratch: async () => ({}),
        persistMemory: async () => ({ saved: [], deleted: [] }),
      }),
      runCode: async () =>
        codeOk
          ? { ok: true, output: 2, logs: [], durationMs: 1 }
          : { ok: false, error: { code: "code_runner_unavailable", message: "helper failed" }, logs: [], durationMs: 1 },
    });
    expect(await checkSandbox(refusing(125, true))).toEqual({
      ok: false,
      code: "code_runner_unavailable",
      message: "bash answered exit 125: little.sh: cannot unshare",
      remedy: CODE_RUNNER_REMEDY,
    });
    expect(await checkSandbox(refusing(0, false))).toMatchObject({
      ok: false,
      message: "code.run failed (code_runner_unavailable): helper failed",
    });
    expect(await checkSandbox(refusing(0, true))).toMatchObject({ ok: true });
  });
});
