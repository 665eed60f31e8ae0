import { TriggerTenantInvalidError } from "../sdk/errors/trigger-tenant-invalid-error.ts";
import { TENANT_PATTERN } from "../sdk/names.ts";

/**
 * The tenant that owns a run started by a cron tick or a queue message when the schedule or the
 * message names none: `LITTLE_TRIGGER_TENANT`, else `default`. A configured value that is not a
 * tenant name throws {@link TriggerTenantInvalidError} (`trigger_tenant_invalid`) rather than
 * creating runs under a name no token can ever read.
 */
export function triggerTenant(env: Env, named: string | undefined): string {
  if (named !== undefined) return named;
  const configured = (env as unknown as Record<string, unknown>).LITTLE_TRIGGER_TENANT;
  if (configured === undefined || configured === "") return "default";
  if (typeof configured !== "string" || !TENANT_PATTERN.test(configured)) throw new TriggerTenantInvalidError(configured);
  return configured;
}
