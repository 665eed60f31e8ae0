import { findTenantRun } from "../engine/runs/find-tenant-run.ts";
import type { RunView } from "../ports/run-handle.ts";
import type { ApiServices } from "./api-env.ts";
import type { Principal } from "./principal.ts";

/** Pause or resume: the one lifecycle switch both front doors (HTTP, RPC) share. */
export type PauseAction = "pause" | "resume";

/**
 * Pauses or resumes a tenant's run through its object (engine/run-host/pause-commands.ts):
 * idempotent (pausing a paused run, resuming a running one, answers the run as it is); an ended
 * run is 409 `run_ended`; a minted anchor, which has no run yet, is 404 `run_not_found`.
 */
export async function pauseTenantRun(
  services: ApiServices,
  tenant: string,
  runId: string,
  action: PauseAction,
  by: string,
): Promise<RunView> {
  const { client } = await findTenantRun(services, tenant, runId);
  const result = action === "pause" ? await client.pause({ by }) : await client.resume({ by });
  return result.view;
}

/** Who a pause or resume names in its event: the token's id (`token:<id>`), or `dev-token` for the development token. */
export function pausedBy(principal: Principal | undefined): string {
  if (principal?.kind !== "tenant") return "admin";
  return principal.tokenId ? `token:${principal.tokenId}` : "dev-token";
}
