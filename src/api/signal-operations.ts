import type { SignalRequest, SignalView } from "../ports/run-handle.ts";
import type { Finding } from "../sdk/finding.ts";
import type { ApiServices } from "./api-env.ts";
import { ApiError } from "./api-error.ts";
import { tenantRunClient } from "./run-at-object.ts";

/**
 * Sends a signal to a tenant's run: the HTTP route and the RPC entrypoint share it, so both refuse
 * the same way. Another tenant's run is not found (404); a refusal of the run object is its code.
 */
export async function sendTenantSignal(
  services: ApiServices,
  tenant: string,
  runId: string,
  request: SignalRequest,
): Promise<{ signal: SignalView; created: boolean }> {
  const client = await tenantRunClient(services, tenant, runId);
  const result = await client.sendSignal({
    name: request.name,
    payload: request.payload,
    ...(request.id !== undefined ? { id: request.id } : {}),
  });
  if (result.ok) return { signal: result.signal, created: result.created };
  const findings: Finding[] | undefined =
    result.code === "signal_payload_invalid"
      ? (result.details?.findings as Finding[] | undefined)
      : result.code === "signal_unknown"
        ? [
            {
              severity: "error",
              code: "signal.unknown",
              path: "$.name",
              message: `declared signals: ${(result.details?.declared ?? []).join(", ") || "none"}`,
            },
          ]
        : undefined;
  throw new ApiError(result.code, result.message, { findings });
}
