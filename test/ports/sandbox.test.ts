import { env } from "cloudflare:workers";
import { IsolateSandbox } from "../../src/adapters/sandbox-isolate/isolate-sandbox.ts";
import { sandboxContract } from "./sandbox.contract.ts";

sandboxContract("IsolateSandbox (just-bash + Worker Loader)", (memory) => new IsolateSandbox({ loader: env.LOADER, memory }));

// The container adapter needs a container runtime (Docker) to build and start its image; these
// machines have none, and the vitest plugin does not run containers.
sandboxContract(
  "ContainerSandbox (@cloudflare/sandbox)",
  () => null,
  "no container runtime here: the container adapter is not implemented yet and Docker is unavailable",
);
