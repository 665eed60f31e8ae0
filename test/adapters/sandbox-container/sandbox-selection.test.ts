import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ContainerSandbox } from "../../../src/adapters/sandbox-container/container-sandbox.ts";
import { parseSandboxKind, SandboxConfigurationError } from "../../../src/adapters/sandbox-container/sandbox-kind.ts";
import { IsolateSandbox } from "../../../src/adapters/sandbox-isolate/isolate-sandbox.ts";
import { app } from "../../../src/api/app.ts";
import { wire } from "../../../src/wiring.ts";

const withSandbox = (value: string | undefined): Env => ({ ...env, LITTLE_SANDBOX: value }) as unknown as Env;

describe("LITTLE_SANDBOX selects the Sandbox adapter", () => {
  it("isolate when unset, empty or `isolate`; container for `container`", () => {
    expect(parseSandboxKind(undefined)).toBe("isolate");
    expect(parseSandboxKind("")).toBe("isolate");
    expect(wire(withSandbox(undefined)).sandbox).toBeInstanceOf(IsolateSandbox);
    expect(wire(withSandbox("isolate")).sandbox).toBeInstanceOf(IsolateSandbox);
    // Built over env.SANDBOX; no container starts until a session or code run uses it.
    expect(wire(withSandbox("container")).sandbox).toBeInstanceOf(ContainerSandbox);
  });

  it("an unknown value is a named configuration error, not a guess", () => {
    for (const value of ["containr", "Container", "docker"]) {
      let caught: unknown;
      try {
        wire(withSandbox(value));
      } catch (error) {
        caught = error;
      }
      expect(caught, value).toBeInstanceOf(SandboxConfigurationError);
      expect(caught).toMatchObject({ code: "sandbox_config_invalid", value });
      expect((caught as Error).message).toContain('"isolate" (the default) or "container"');
    }
  });

  it("the API answers a misconfigured Worker with the error's code instead of a 500", async () => {
    const res = await app.fetch(new Request("http://little.test/v1/health"), withSandbox("containr"));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { code: "sandbox_config_invalid", message: 'LITTLE_SANDBOX is "containr"; set it to "isolate" (the default) or "container"' },
    });
  });
});
