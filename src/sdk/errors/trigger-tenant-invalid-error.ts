import { LittleError } from "./little-error.ts";

/**
 * The Worker var `LITTLE_TRIGGER_TENANT` (the tenant of cron and queue runs that name none) is not
 * a tenant name: no run is started for it. The operator fixes the var; queue messages are retried
 * meanwhile, a cron tick's start fails with this code.
 *
 * @example
 * throw new TriggerTenantInvalidError("Acme Corp"); // code "trigger_tenant_invalid"
 */
export class TriggerTenantInvalidError extends LittleError {
  readonly code = "trigger_tenant_invalid";
  /** The configured value, as text. */
  readonly value: string;
  constructor(value: unknown) {
    const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
    super(
      `The Worker var LITTLE_TRIGGER_TENANT ${JSON.stringify(text)} is not a tenant name (1–63 of a-z, 0-9, '_' or '-', starting with a letter or digit)`,
    );
    this.name = "TriggerTenantInvalidError";
    this.value = text;
  }
}
