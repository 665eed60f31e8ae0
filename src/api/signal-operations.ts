import { findTenantRun } from "../engine/runs/find-tenant-run.ts";
import type { SignalRequest, SignalView } from "../ports/run-handle.ts";
import type { ApiServices } from "./api-env.ts";

/**
 * Sends a signal to a tenant's run: the HTTP route and the RPC entrypoint share it, so both refuse
 * the same way. Another tenant's run is not found (404); the run's refusal is its named error
 * (`SignalRefusedError`, `RunEndedError`), thrown by the `RunHandle` port.
 */
export async function sendTenantSignal(
  services: ApiServices,
  tenant: string,
  runId: string,
  request: SignalRequest,
): Promise<{ signal: SignalView; created: boolean }> {
  const { client } = await findTenantRun(services, tenant, runId);
  const result = await client.sendSignal({
    name: request.name,
    payload: request.payload,
    ...(request.id !== undefined ? { id: request.id } : {}),
  });
  return { signal: result.signal, created: result.created };
}
