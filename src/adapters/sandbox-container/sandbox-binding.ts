import { getSandbox } from "@cloudflare/sandbox";
import type { OpenContainer } from "./container-client.ts";
import type { SandboxContainer } from "./sandbox-container.ts";

/**
 * Opens sandboxes of the `SANDBOX` Durable Object namespace (the `SandboxContainer` class) with
 * `getSandbox`. A container left idle sleeps after ten minutes; its disk does not survive that,
 * which is why sessions restore their scratch and memory from the run's log and the stores.
 *
 * @example
 * new ContainerSandbox({ open: openSandboxes(env.SANDBOX), memory })
 */
export function openSandboxes(namespace: DurableObjectNamespace<SandboxContainer>): OpenContainer {
  // A stub belongs to the request that made it (workerd refuses I/O on it from another one), and
  // sessions can outlive a request: take a fresh stub per call — getSandbox only derives an id.
  const sandbox = (sandboxId: string) => getSandbox(namespace, sandboxId, { sleepAfter: "10m" });
  return (sandboxId) => ({
    exec: (command, options) => sandbox(sandboxId).exec(command, options),
    writeFile: (path, content) => sandbox(sandboxId).writeFile(path, content),
  });
}
