/**
 * The tenant that owns a run started by a cron tick or a queue message when the schedule or the
 * message names none: `LITTLE_TRIGGER_TENANT`, else `default`.
 */
export function triggerTenant(env: Env, named: string | undefined): string {
  if (named !== undefined) return named;
  const configured = (env as unknown as Record<string, unknown>).LITTLE_TRIGGER_TENANT;
  return typeof configured === "string" && configured !== "" ? configured : "default";
}
