import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryMemoryStore } from "../../../src/adapters/memory/memory-memory-store.ts";
import { NO_NETWORK_NAMESPACE_EXIT } from "../../../src/adapters/sandbox-container/helper-scripts.ts";
import { smokeCheck } from "../../../src/cli/deploy/sandbox-smoke-check.ts";
import { digestText } from "../../../src/json/digest.ts";
import { CODE_RUNNER_REMEDY } from "../../../src/ports/sandbox-check.ts";
import { type ContractDev, containerRunUnavailable, startContractWorker } from "./support/contract-dev.ts";
import { RemoteSandbox } from "./support/remote-sandbox.ts";

// The branch where the runtime does not let root call `unshare --net` (Docker's default
// capabilities): the helper refuses every command of the sandbox user, fail-closed, and says so
// with the remedy — in bash's stderr, in code.run's error, and in the smoke check `little deploy`
// runs through the deployed Worker (docs/sandbox.md, "Network namespaces"). scripts/test-containers.sh
// gives this file a Docker API proxy that adds no capability (LITTLE_DOCKER_HOST_DEFAULT_CAPS).
const dockerHost = process.env.LITTLE_DOCKER_HOST_DEFAULT_CAPS;
const unavailable =
  (await containerRunUnavailable()) ??
  (dockerHost ? null : "set LITTLE_DOCKER_HOST_DEFAULT_CAPS to a Docker API that adds no capability (scripts/test-containers.sh does)");
if (unavailable) console.log(`real containers without unshare: skipped — ${unavailable}`);
let dev: ContractDev | null = null;
beforeAll(async () => {
  if (!unavailable) dev = await startContractWorker({ dockerHost: dockerHost as string });
}, 16 * 60_000);
afterAll(async () => {
  await dev?.stop();
});

describe.skipIf(unavailable !== null)("ContainerSandbox on real containers where root may not unshare: refused, loudly", () => {
  it("bash exits 125 and names the reason and the remedy; code.run answers code_runner_unavailable", async () => {
    const sandbox = new RemoteSandbox((dev as ContractDev).url, new MemoryMemoryStore());
    const session = await sandbox.openSession({ sessionId: "refused", skills: [] });
    const r = await session.exec("id -u");
    expect(r.exitCode).toBe(NO_NETWORK_NAMESPACE_EXIT);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("unshare --net failed");
    expect(r.stderr).toContain(CODE_RUNNER_REMEDY);
    const source = "export function run() { return 1; }";
    const code = await sandbox.runCode({
      files: { "m.js": { content: source, sha256: digestText(source) } },
      entrypoint: "m.js",
      input: {},
      policy: { network: "deny", env: "deny", fs: "deny" },
    });
    expect(code).toMatchObject({ ok: false, error: { code: "code_runner_unavailable", message: expect.stringContaining("Remedy:") } });
  });

  it("the deploy's smoke check through the Worker reports code_runner_unavailable with the remedy", async () => {
    const report = await smokeCheck((dev as ContractDev).url, { fetch, attempts: 1 });
    expect(report).toMatchObject({ ok: false, code: "code_runner_unavailable", remedy: CODE_RUNNER_REMEDY });
    expect(report.ok ? "" : report.message).toContain("exit 125");
  });
});
