import type { ResolvedModelSlot } from "../identity/model-slots.ts";
import type { WorkflowDefinition } from "../sdk/define-workflow.ts";

/** A workflow's flow control as `GET /v1/workflows` shows it; nothing when it has none. */
export function flowControlOf(definition: WorkflowDefinition, slots: readonly ResolvedModelSlot[]) {
  const modelLimits = definition.models.flatMap((declared, i) => {
    const slot = slots[i];
    return declared.limits && slot ? [{ slotId: slot.id, providerId: slot.providerId, modelId: slot.modelId, ...declared.limits }] : [];
  });
  const flowControl = {
    ...(definition.concurrency?.length ? { concurrency: definition.concurrency.map((c) => ({ ...c })) } : {}),
    ...(definition.throttle ? { throttle: { ...definition.throttle } } : {}),
    ...(modelLimits.length > 0 ? { modelLimits } : {}),
  };
  return Object.keys(flowControl).length > 0 ? { flowControl } : {};
}
