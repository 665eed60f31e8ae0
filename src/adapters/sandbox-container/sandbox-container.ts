import { Sandbox } from "@cloudflare/sandbox";
import type { ContainerSandbox } from "./container-sandbox.ts";

/**
 * The container sandbox Durable Object (`@cloudflare/sandbox`) that {@link ContainerSandbox} drives
 * when `LITTLE_SANDBOX=container`, with the internet switched off: bash sessions and code.run get
 * no network at all (a definition's network allowance cannot reopen it). Locally
 * (`dev.enable_containers = false`, no Docker) the class is declared but never started.
 */
export class SandboxContainer extends Sandbox<Env> {
  override enableInternet = false;
}
