import { digestText } from "../json/digest.ts";
import type { WebhookConfig } from "../sdk/define-workflow.ts";
import { isLocalDevelopment } from "../wiring/deployment-mode.ts";
import { assertSecureConfiguration } from "../wiring/insecure-configuration.ts";
import type { ApiVars } from "./api-env.ts";
import { ApiError } from "./api-error.ts";

/** The secret a workflow's deliveries are signed with: the variable it came from, its value, and a digest naming it. */
export type WebhookSigningSecret = { readonly name: string; readonly value: string; readonly key: string };

/**
 * The signing secret of a workflow's webhooks. A workflow takes webhooks only when its definition
 * declares `webhook: { secret: "<NAME>" }`, NAME being a Worker secret (or var). When that
 * variable is unset, local development (`LITTLE_ENV=development`) falls back to the shared
 * `LITTLE_WEBHOOK_SECRET`; a deployed Worker never does, because one shared secret lets a delivery
 * signed for one workflow start any other. A deployed Worker also refuses a well-known example
 * value in the variable (503 `insecure_configuration`).
 */
export function webhookSecretFor(env: ApiVars & object, workflowId: string, config: WebhookConfig | null): WebhookSigningSecret {
  if (!config?.secret)
    throw new ApiError(
      "webhook_not_configured",
      `Workflow "${workflowId}" takes no webhooks: its definition declares no webhook: { secret: "<NAME>" }`,
    );
  const vars = env as Readonly<Record<string, unknown>>;
  const own = vars[config.secret];
  if (typeof own === "string" && own !== "") {
    assertSecureConfiguration(env, [config.secret]);
    return signingSecret(config.secret, own);
  }
  const shared = env.LITTLE_WEBHOOK_SECRET;
  if (isLocalDevelopment(env) && typeof shared === "string" && shared !== "") return signingSecret("LITTLE_WEBHOOK_SECRET", shared);
  throw new ApiError(
    "webhook_not_configured",
    `Workflow "${workflowId}" takes webhooks signed with the Worker secret ${config.secret}, which is not set: \`wrangler secret put ${config.secret}\``,
  );
}

function signingSecret(name: string, value: string): WebhookSigningSecret {
  // The library reads `whsec_<base64>` and `<base64>` as the same key: so does the claim key.
  const key = value.startsWith("whsec_") ? value.slice("whsec_".length) : value;
  return { name, value, key: digestText(`little-webhook-secret:${key}`) };
}
