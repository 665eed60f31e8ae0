import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { IsolateSandbox } from "../../../src/adapters/sandbox-isolate/isolate-sandbox.ts";
import { digestJson, digestPrefix, digestText } from "../../../src/json/digest.ts";
import type { RunCodeRequest } from "../../../src/ports/sandbox.ts";

// Keeps what the last call was given in module state: a warm isolate would hand it to the next call.
const STASH = `let last = null;
export function run(arg) {
  const previous = last;
  last = arg.env ? arg.env.TOKEN : null;
  return { hasEnv: "env" in arg, token: arg.env ? arg.env.TOKEN ?? null : null, previous, frozen: arg.env ? Object.isFrozen(arg.env) : null };
}
`;

const request = (policyEnv: "allow" | "deny", vars?: Record<string, string>): RunCodeRequest => ({
  files: { "stash.js": { content: STASH, sha256: digestText(STASH) } },
  entrypoint: "stash.js",
  input: {},
  policy: { network: "deny", env: policyEnv, fs: "deny" },
  ...(vars ? { env: vars } : {}),
});

describe('isolate sandbox: sandbox.env "allow" (Worker Loader)', () => {
  it("calls run({ input, env }) with exactly the declared variables, frozen; deny calls run({ input })", async () => {
    const sandbox = new IsolateSandbox({ loader: env.LOADER });
    expect(await sandbox.runCode(request("allow", { TOKEN: "tok-a-1234567" }))).toMatchObject({
      ok: true,
      output: { hasEnv: true, token: "tok-a-1234567", frozen: true },
    });
    expect(await sandbox.runCode(request("deny", { TOKEN: "tok-a-1234567" }))).toMatchObject({
      ok: true,
      output: { hasEnv: false, token: null },
    });
  });

  it("never shares a warm isolate between calls given different variables (another tenant's secret stays out of reach)", async () => {
    // One run (scope) given other variables, e.g. a secret rotated between two steps.
    const sandbox = new IsolateSandbox({ loader: env.LOADER }).forScope(`tenant:run-${crypto.randomUUID()}`);
    const a = await sandbox.runCode(request("allow", { TOKEN: "tenant-a-secret" }));
    const again = await sandbox.runCode(request("allow", { TOKEN: "tenant-a-secret" }));
    const b = await sandbox.runCode(request("allow", { TOKEN: "tenant-b-secret" }));
    expect(a).toMatchObject({ ok: true, output: { previous: null } });
    // The same variables may reuse the isolate (that is what it is cached for)…
    expect(again).toMatchObject({ ok: true, output: { previous: "tenant-a-secret" } });
    // …other variables never see them.
    expect(b).toMatchObject({ ok: true, output: { token: "tenant-b-secret", previous: null } });
  });

  it("keys warm isolates by an HMAC with a salt of the sandbox instance: no plain digest over the values, one id per instance", async () => {
    const ids: string[] = [];
    const loader = {
      get: (id: string, config: () => WorkerLoaderWorkerCode) => {
        ids.push(id);
        return env.LOADER.get(id, config);
      },
    } as WorkerLoader;
    const first = new IsolateSandbox({ loader });
    const second = new IsolateSandbox({ loader });
    const vars = { TOKEN: "tenant-a-secret" };
    for (const sandbox of [first, first, second])
      expect(await sandbox.forScope("t:r").runCode(request("allow", vars))).toMatchObject({ ok: true });
    const [a, again, other] = ids;
    // What the id was before: anyone with the code could test a guessed secret against it.
    const r = request("allow", vars);
    const unsalted = `code-${digestPrefix(digestJson({ files: { "stash.js": r.files["stash.js"]?.sha256 }, entrypoint: r.entrypoint, policy: r.policy, hosts: [], env: vars }), 32)}`;
    // The HMAC, then the warm slot (warm-isolate-slots.ts).
    expect(a).toMatch(/^code-[0-9a-f]{32}-0$/);
    expect(a).not.toBe(unsalted);
    expect(again).toBe(a);
    expect(other).not.toBe(a);
  });
});
