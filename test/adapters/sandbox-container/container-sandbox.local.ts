import { afterAll } from "vitest";
import { ContainerSandbox } from "../../../src/adapters/sandbox-container/container-sandbox.ts";
import { sandboxContract } from "../../ports/sandbox.contract.ts";
import { LocalContainer, localContainerUnavailable } from "./support/local-container.ts";

const unavailable = localContainerUnavailable();
const containers: LocalContainer[] = [];
afterAll(() => {
  for (const c of containers) c.dispose();
});

sandboxContract(
  "ContainerSandbox over local namespace containers (real bash, node, setpriv; no Docker)",
  (memory) =>
    new ContainerSandbox({
      open: () => {
        const c = new LocalContainer();
        containers.push(c);
        return c;
      },
      memory,
    }),
  unavailable ?? undefined,
);
