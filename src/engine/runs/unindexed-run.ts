import type { RunHandle, RunHandles } from "../../ports/run-handle.ts";
import type { RunIndexEntry, RunPlacement } from "../../ports/run-index.ts";
import type { WorkflowCatalog } from "../run-environment.ts";

/** Where runs are looked for: their objects, and the workflows whose jurisdictions they may live in. */
export type RunLookupPorts = { readonly runHandles: RunHandles; readonly workflows: WorkflowCatalog };

/**
 * A run whose index row has not landed yet, found at its run object. A run object writes its row
 * after answering the start (durable-objects/run.ts), so for a few milliseconds — or, after a
 * crash, until its alarm's repair — a run exists that the index does not know. Its object's name
 * is a function of the tenant and run id; only the jurisdiction (the namespace) is not, so each
 * jurisdiction a served workflow names is tried when jurisdictions are enforced. Read only: the
 * row is the run object's to write.
 */
export async function unindexedRun(
  services: RunLookupPorts,
  tenant: string,
  runId: string,
): Promise<{ entry: RunIndexEntry; client: RunHandle } | null> {
  for (const placement of candidatePlacements(services)) {
    const client = services.runHandles.open(tenant, runId, placement);
    const [first] = await client.events({ after: 0, limit: 1 });
    if (first?.type !== "RunRequested" || first.payload.tenant !== tenant) continue;
    const view = await client.status();
    const request = first.payload;
    const entry: RunIndexEntry = {
      tenant,
      runId,
      workflowId: request.workflowId,
      status: view.status,
      waitReason: view.waitReason ?? null,
      triggerKind: request.trigger.kind,
      definitionHash: null,
      versionId: view.versionId ?? null,
      causeCode: view.cause?.code ?? null,
      placement: request.placement ?? placement,
      createdAt: first.at,
      updatedAt: first.at,
    };
    return { entry, client };
  }
  return null;
}

/** Where a run object may live: the plain namespace, then each jurisdiction a served workflow names. */
export function candidatePlacements(services: RunLookupPorts): RunPlacement[] {
  if (!services.runHandles.jurisdictionsEnforced()) return [{}];
  const jurisdictions = new Set<string>();
  for (const id of services.workflows.ids()) {
    const jurisdiction = services.workflows.get(id)?.definition.placement.jurisdiction;
    if (jurisdiction) jurisdictions.add(jurisdiction);
  }
  return [{}, ...[...jurisdictions].map((jurisdiction) => ({ jurisdiction }))];
}
