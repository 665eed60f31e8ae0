import { LittleError } from "../../sdk/errors/little-error.ts";

/**
 * The container sandbox could not do what the host asked (prepare a container, lay out a
 * session, read back files) — not a failure of the commands or code run in it, which are
 * reported as exit codes and code.run errors instead.
 */
export class ContainerSandboxError extends LittleError {
  readonly code = "container_sandbox_failed";
  constructor(message: string) {
    super(message);
    this.name = "ContainerSandboxError";
  }
}
