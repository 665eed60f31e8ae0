import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { IsolateSandbox } from "../src/adapters/sandbox-isolate/isolate-sandbox.ts";
import { overrideWiring, wire } from "../src/wiring.ts";

describe("wiring: adapters built once per isolate", () => {
  afterEach(() => overrideWiring({}));

  it("builds the ports once per env object and hands the same ones to every caller", () => {
    const first = wire(env);
    expect(wire(env)).toBe(first);
    expect(wire(env).runHandles).toBe(first.runHandles);
    expect(wire(env).tokens).toBe(first.tokens);
  });

  it("drops what it built when a test overrides the wiring", () => {
    const before = wire(env);
    const clock = { now: () => 42 };
    overrideWiring({ clock });
    const after = wire(env);
    expect(after).not.toBe(before);
    expect(after.clock).toBe(clock);
  });

  it("gives each run its own container sandbox scope, sharing everything else", () => {
    const withContainers = { ...env, LITTLE_SANDBOX: "container" } as unknown as Env;
    const shared = wire(withContainers);
    const run = wire(withContainers, { runId: "default:run_1" });
    expect(run.sandbox).not.toBe(shared.sandbox);
    expect(run.runs).toBe(shared.runs);
    expect(run.models).toBe(shared.models);
  });

  it("gives each run a view of the isolate sandbox scoped to it (issue 24), sharing everything else", () => {
    const shared = wire(env);
    const run = wire(env, { runId: "default:run_1" });
    expect(shared.sandbox).toBeInstanceOf(IsolateSandbox);
    expect(run.sandbox).not.toBe(shared.sandbox);
    expect(run.sandbox).not.toBeInstanceOf(IsolateSandbox);
    expect(run.runs).toBe(shared.runs);
    expect(run.models).toBe(shared.models);
  });
});
