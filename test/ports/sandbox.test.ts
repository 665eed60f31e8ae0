import { env } from "cloudflare:workers";
import { IsolateSandbox } from "../../src/adapters/sandbox-isolate/isolate-sandbox.ts";
import { sandboxContract } from "./sandbox.contract.ts";

sandboxContract("IsolateSandbox (just-bash + Worker Loader)", (memory) => new IsolateSandbox({ loader: env.LOADER, memory }));

// The container adapter needs containers, which the vitest plugin (workerd) does not start. Its
// contract runs in Node instead (test/adapters/sandbox-container/vitest.local.config.ts): over local
// namespace containers wherever unshare works, and on real containers (wrangler dev
// --enable-containers) when LITTLE_SANDBOX_CONTAINER_TESTS=1 and a Docker engine answers.
sandboxContract(
  "ContainerSandbox (@cloudflare/sandbox)",
  () => null,
  "the vitest plugin does not run containers: run `npx vitest run --config test/adapters/sandbox-container/vitest.local.config.ts` (with LITTLE_SANDBOX_CONTAINER_TESTS=1 where Docker runs)",
);
