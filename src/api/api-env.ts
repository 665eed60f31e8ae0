import type { QuotaVars } from "../engine/runs/start-limits.ts";
import type { TokenStore } from "../ports/token-store.ts";
import type { WebhookDeliveries } from "../ports/webhook-deliveries.ts";
import type { Wiring } from "../wiring.ts";
import type { Principal } from "./principal.ts";

/** Services the routes use, wired once per request in app.ts. */
export type ApiServices = Wiring & { readonly tokens: TokenStore; readonly deliveries: WebhookDeliveries };

/** Optional configuration the API reads (Worker vars and secrets). */
export type ApiVars = QuotaVars & {
  /** `development` for local development (npm run dev, tests); anything else is a deployed Worker. */
  LITTLE_ENV?: string;
  LITTLE_DEV_TOKEN?: string;
  LITTLE_ADMIN_TOKEN?: string;
  LITTLE_WEBHOOK_SECRET?: string;
  LITTLE_WEBHOOK_TENANT?: string;
  /** The tenant of runs started through a service binding (LittleWorkflowEntrypoint) whose binding sets no `props.tenant`; default `default`. */
  LITTLE_RPC_TENANT?: string;
};

/** The hono environment of every route. */
export type ApiEnv = { Bindings: Env & ApiVars; Variables: { tenant: string; principal: Principal; services: ApiServices } };
