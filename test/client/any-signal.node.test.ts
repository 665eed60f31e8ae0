/**
 * The client's combined signal (caller's signal + timeout) on a runtime without AbortSignal.any
 * (Node 20.0–20.2, which `engines: >=20` allows): the fallback aborts with the first reason, and
 * a client call is still cancelled by the caller's signal and by its timeout.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anySignal } from "../../src/client/any-signal.ts";
import { createClient, LittleClientError } from "../../src/client/index.ts";

const original = Object.getOwnPropertyDescriptor(AbortSignal, "any");

/** A fetch that never answers, rejecting with the signal's reason when it aborts (as fetch does). */
function hangingFetch(seen: AbortSignal[]) {
  return (_input: Request | string | URL, init?: RequestInit) =>
    new Promise<Response>((_resolve, reject) => {
      const signal = init?.signal;
      if (!signal) return;
      seen.push(signal);
      signal.addEventListener("abort", () => reject(signal.reason), { once: true });
    });
}

describe("anySignal without AbortSignal.any", () => {
  beforeEach(() => {
    Reflect.deleteProperty(AbortSignal, "any");
    expect(typeof (AbortSignal as { any?: unknown }).any).toBe("undefined");
  });
  afterEach(() => {
    if (original) Object.defineProperty(AbortSignal, "any", original);
  });

  it("aborts with the first signal's reason, once, and leaves no listener behind", () => {
    const a = new AbortController();
    const b = new AbortController();
    const combined = anySignal([a.signal, b.signal]);
    let fired = 0;
    combined.addEventListener("abort", () => fired++);
    expect(combined.aborted).toBe(false);
    b.abort(new Error("b first"));
    a.abort(new Error("a later"));
    expect(combined.aborted).toBe(true);
    expect((combined.reason as Error).message).toBe("b first");
    expect(fired).toBe(1);
  });

  it("is aborted at once when an input already is", () => {
    const done = AbortSignal.abort("already");
    const combined = anySignal([new AbortController().signal, done]);
    expect(combined.aborted).toBe(true);
    expect(combined.reason).toBe("already");
  });

  it("a client call is cancelled by the caller's signal (its reason) and by its timeout (server_timeout)", async () => {
    const seen: AbortSignal[] = [];
    const client = createClient({ baseUrl: "http://little.test", token: "t", fetch: hangingFetch(seen) });

    const caller = new AbortController();
    const call = client.getRun("run_x", { signal: caller.signal, timeoutMs: 60_000 });
    caller.abort(new Error("user went away"));
    await expect(call).rejects.toThrow("user went away");

    const timedOut = client.getRun("run_y", { signal: new AbortController().signal, timeoutMs: 50 });
    const error = await timedOut.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LittleClientError);
    expect((error as LittleClientError).code).toBe("server_timeout");
    // Both calls got one combined signal (the caller's and a timeout), not the caller's own.
    expect(seen).toHaveLength(2);
    expect(seen[0]).not.toBe(caller.signal);
  });
});
