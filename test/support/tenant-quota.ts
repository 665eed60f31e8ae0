import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { runStub } from "./drive.ts";

/** The rows of one of a tenant's quota limiters (src/engine/runs/tenant-gates.ts): run id → state. */
export async function quotaEntries(tenant: string, kind: "concurrency" | "throttle"): Promise<Record<string, string>> {
  const stub = env.FLOW.get(env.FLOW.idFromName(JSON.stringify(["tenant-quota", tenant, kind])));
  return runInDurableObject(stub, (_instance, state) => {
    const rows = state.storage.sql
      .exec<{ run_id: string; state: string }>("SELECT run_id, state FROM flow_entries")
      .toArray()
      .map((r) => [r.run_id, r.state]);
    return Object.fromEntries(rows) as Record<string, string>;
  });
}

/** Entries of the tenant's quota limiters whose run does not exist: a start that stored nothing must hold none. */
export async function strayQuotaEntries(tenant: string): Promise<string[]> {
  const held = [...Object.keys(await quotaEntries(tenant, "concurrency")), ...Object.keys(await quotaEntries(tenant, "throttle"))];
  const stray: string[] = [];
  for (const runId of new Set(held)) {
    const [first] = await runStub(runId, tenant).events({ limit: 1 });
    if (first?.type !== "RunRequested") stray.push(runId);
  }
  return stray;
}
