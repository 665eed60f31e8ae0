/**
 * The Worker entry: the one place adapters are wired to the app. Exports the HTTP handler and
 * every Durable Object class wrangler.toml declares.
 */
import { app } from "./api/app.ts";

export { RunObject } from "../durable-objects/run.ts";
export { SandboxContainer } from "./adapters/sandbox-container/sandbox-container.ts";
export { NetworkGate } from "./adapters/sandbox-isolate/network-gate.ts";

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
