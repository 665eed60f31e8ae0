import { afterAll, beforeAll } from "vitest";
import { sandboxContract } from "../../ports/sandbox.contract.ts";
import { type ContractDev, containerRunUnavailable, startContractWorker } from "./support/contract-dev.ts";
import { RemoteSandbox } from "./support/remote-sandbox.ts";

// The Sandbox contract on real containers: the contract worker under `wrangler dev
// --enable-containers`, which builds sandbox/Dockerfile. Skipped, with the reason printed, unless
// LITTLE_SANDBOX_CONTAINER_TESTS=1 and a Docker engine answers.
const unavailable = await containerRunUnavailable();
let dev: ContractDev | null = null;
beforeAll(async () => {
  if (!unavailable) dev = await startContractWorker();
}, 16 * 60_000);
afterAll(async () => {
  await dev?.stop();
});

sandboxContract(
  "ContainerSandbox on real containers (wrangler dev --enable-containers)",
  (memory) => new RemoteSandbox((dev as ContractDev).url, memory),
  unavailable ?? undefined,
);
