/**
 * The part of a `@cloudflare/sandbox` sandbox stub that the container adapter uses: the rest of
 * the adapter talks to the container only through these two calls, which keeps it testable with
 * a fake (see test/adapters/sandbox-container) and makes its trust boundary easy to audit.
 */
export interface ContainerClient {
  /** Runs a command line in the container's shell (as root); `timeout` is the SDK's backstop. */
  exec(command: string, options: { cwd?: string; timeout?: number }): Promise<{ exitCode: number; stdout: string; stderr: string }>;
  /** Writes a UTF-8 file (as root). The adapter only writes into its own root-only directories. */
  writeFile(path: string, content: string): Promise<unknown>;
}

/** Returns the client of the sandbox with this id, starting its container on first use. */
export type OpenContainer = (sandboxId: string) => ContainerClient;
