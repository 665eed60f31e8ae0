import type { DefinitionCapabilities } from "../../identity/definition-snapshot.ts";
import type { ModelMode, ModelReadiness, ModelResolver } from "../../ports/model-resolver.ts";
import { StartRefusedError } from "../../sdk/errors/start-refused-error.ts";
import type { Finding } from "../../sdk/finding.ts";
import type { RegisteredWorkflow } from "../run-environment.ts";

/** One model slot of a workflow as `GET /v1/workflows` shows it: what it calls, and whether it can. */
export type SlotReadiness = {
  readonly id: string;
  readonly role: "planner" | "step";
  readonly provider: string;
  readonly model: string;
  readonly source: "definition" | "override";
  readonly mode: ModelMode;
  readonly ready: boolean;
  readonly offline: boolean;
  readonly missing?: string[];
};

/** A resolver without `readiness` (a test double) serves every slot itself: always ready. */
const ASSUMED_READY: ModelReadiness = { mode: "live", ready: true, offline: false, missing: [], source: "definition" };

/**
 * The readiness of the planner slot and of every execution slot, from the same snapshot the run
 * will hash (overrides applied), asked of the resolver without building or calling anything.
 */
export function slotReadiness(models: ModelResolver, workflow: RegisteredWorkflow, capabilities: DefinitionCapabilities): SlotReadiness[] {
  const { snapshot } = capabilities;
  const planner = snapshot.plannerConfig;
  const entries = [
    {
      role: "planner" as const,
      id: planner.modelSlotId,
      providerId: planner.providerId,
      modelId: planner.modelId,
      declared: workflow.definition.planner.model,
    },
    ...snapshot.modelSlots.map((slot, i) => ({
      role: "step" as const,
      id: slot.id,
      providerId: slot.providerId,
      modelId: slot.modelId,
      declared: workflow.definition.models[i]?.model ?? slot.modelId,
    })),
  ];
  return entries.map((e) => {
    const r =
      models.readiness?.({
        role: e.role === "planner" ? "planner" : "worker",
        slotId: e.id,
        providerId: e.providerId,
        modelId: e.modelId,
        declared: e.declared,
      }) ?? ASSUMED_READY;
    return {
      id: e.id,
      role: e.role,
      provider: e.providerId,
      model: e.modelId,
      source: r.source,
      mode: r.mode,
      ready: r.ready,
      offline: r.offline,
      ...(r.missing.length > 0 ? { missing: [...r.missing] } : {}),
    };
  });
}

/**
 * Refuses a start in `live` mode when a slot the run may call lacks a key or binding: 409
 * `model_unavailable` naming the secrets, thrown before anything is stored (no run object, no
 * run index row, no definition projection). Without a given LWIR the planner counts; every
 * execution slot counts, since which ones the plan uses is not known before it is made.
 */
export function assertModelsAvailable(
  models: ModelResolver,
  workflow: RegisteredWorkflow,
  capabilities: DefinitionCapabilities,
  options: { readonly plans: boolean },
): void {
  const blocked = slotReadiness(models, workflow, capabilities).filter((s) => !s.ready && (options.plans || s.role === "step"));
  if (blocked.length === 0) return;
  const missing = [...new Set(blocked.flatMap((s) => s.missing ?? []))].sort();
  const findings: Finding[] = blocked.map((s) => ({
    severity: "error",
    code: "model_unavailable",
    path: s.role === "planner" ? "$.planner.model" : `$.models[${JSON.stringify(s.id)}]`,
    message: `${s.role === "planner" ? "planner" : "slot"} ${s.id} (${s.provider}/${s.model}) needs ${(s.missing ?? []).join(", ")}`,
  }));
  throw new StartRefusedError(
    "model_unavailable",
    `Workflow "${capabilities.snapshot.id}" cannot start: missing ${missing.join(", ")} (set the Worker secret with wrangler secret put, or run locally with LITTLE_MODELS=offline or auto)`,
    { findings },
  );
}
