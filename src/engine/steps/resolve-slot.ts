import type { ModelSlotRef } from "../../harness/durable-model.ts";
import { rateLimitedModel } from "../../harness/rate-limited-model.ts";
import type { ResolvedModelSlot } from "../../identity/model-slots.ts";
import type { CallableModel } from "../../ports/model-resolver.ts";
import type { HarnessRole } from "../../ports/run-events.ts";
import { RunFailure } from "../run-failure.ts";
import { rateLimitReport } from "./rate-limit-wait.ts";
import type { StepAttempt } from "./step-context.ts";

/**
 * An execution model slot made callable for a worker or fixer session: the snapshot's slot, the
 * definition's declared model (and pricing), resolved through the model resolver. A slot the
 * definition no longer has is drift.
 */
export function resolveSlot(
  a: StepAttempt,
  slotId: string,
  role: Exclude<HarnessRole, "planner">,
): { slot: ResolvedModelSlot; model: CallableModel; ref: ModelSlotRef } {
  const index = a.capabilities.snapshot.modelSlots.findIndex((s) => s.id === slotId);
  const slot = a.capabilities.snapshot.modelSlots[index];
  const declared = a.workflow.definition.models[index];
  if (!slot || !declared)
    throw new RunFailure("capability_drift", `${a.stepPath} uses model slot ${slotId}, which the definition no longer has`);
  const resolved = a.env.models.resolve({
    role,
    slotId: slot.id,
    providerId: slot.providerId,
    modelId: slot.modelId,
    declared: declared.model,
  });
  const ref: ModelSlotRef = {
    id: slot.id,
    providerId: slot.providerId,
    modelId: slot.modelId,
    offline: resolved.offline,
    ...(declared.pricing ? { pricing: declared.pricing } : {}),
  };
  // Shared model limits (docs/flow-control.md): every live attempt asks the model's limiter first.
  const scope = a.env.modelLimits;
  const model =
    declared.limits && scope
      ? rateLimitedModel(resolved.model, { providerId: slot.providerId, modelId: slot.modelId }, declared.limits, {
          ...scope,
          clock: a.env.clock,
          sleep: a.env.sleep,
          report: rateLimitReport(a, { providerId: slot.providerId, modelId: slot.modelId }),
        })
      : resolved.model;
  return { slot, model, ref };
}
