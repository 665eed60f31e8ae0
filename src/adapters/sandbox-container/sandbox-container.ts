import { Sandbox } from "@cloudflare/sandbox";

/**
 * The container sandbox Durable Object for deploys (`@cloudflare/sandbox`), with the internet
 * switched off: planner and fixer bash sessions get no network unless a definition allows it.
 * Locally (`dev.enable_containers = false`, no Docker) the class is declared but never started;
 * the isolate sandbox serves local runs and tests.
 */
export class SandboxContainer extends Sandbox<Env> {
  override enableInternet = false;
}
