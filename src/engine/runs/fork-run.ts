/**
 * @module Forks (docs/runs.md, "Restart and forks"): a new run of the source's LWIR with edits — a
 * model for a slot, a step's `with`, another input, or a whole given LWIR — validated, bound and
 * locked as any given LWIR is (no planner), started through the one start service. Each step reuses
 * the source's recorded result exactly when its content key is unchanged; the rest runs.
 */
import type { ModelOverrides } from "../../identity/model-overrides.ts";
import { contentAddress } from "../../identity/workflow-version.ts";
import { checkLwir } from "../../lwir/check-lwir.ts";
import type { Lwir } from "../../lwir/types.ts";
import type { RunView } from "../../ports/run-handle.ts";
import { SCHEMA_NORMALIZER } from "../../schema/normalize-schema.ts";
import { LwirInvalidError } from "../../sdk/errors/lwir-invalid-error.ts";
import { RunForkRefusedError } from "../../sdk/errors/run-fork-refused-error.ts";
import { StartRefusedError } from "../../sdk/errors/start-refused-error.ts";
import { type Finding, hasNoErrors } from "../../sdk/finding.ts";
import { definitionCapabilities } from "../definition-capabilities.ts";
import { planReuse, type ReusePlan } from "../memo/reuse-plan.ts";
import { withRunModelOverrides } from "../run-model-overrides.ts";
import { type ForkPorts, forkRunId, linkToSource, loadEndedSource } from "./fork-source.ts";
import { startRun } from "./start-service.ts";

export type ForkRequest = {
  /** Another input (default the source's). */
  readonly input?: unknown;
  /** Model slot → `provider:model`, for this run only. */
  readonly models?: Readonly<Record<string, string>>;
  /** Step id → fields of its `with` to replace (a shallow merge: `{ "prompt": "…" }` changes the prompt only). */
  readonly steps?: Readonly<Record<string, { readonly with: Readonly<Record<string, unknown>> }>>;
  /** A whole LWIR to run instead of the source's (the step edits apply to it too). */
  readonly lwir?: unknown;
  readonly idempotencyKey?: string | undefined;
  /** Plan only: nothing is stored or started. */
  readonly dryRun?: boolean | undefined;
  readonly waitMs?: number | undefined;
};

export type ForkPlan = ReusePlan & { readonly sourceRunId: string; readonly versionId: string };

export type ForkedRun =
  | ({ readonly dryRun: true } & ForkPlan)
  | ({ readonly dryRun: false; readonly runId: string; readonly view: RunView; readonly created: boolean } & ForkPlan);

export type ForkRunPorts = ForkPorts & { readonly parseModels: (models: Readonly<Record<string, string>>) => ModelOverrides };

/**
 * Forks the tenant's ended run. Refusals, before anything is stored: those of a restart's source
 * (404, 409 `run_active`, 409 `run_not_forkable`), 422 `fork_edit_invalid` (unknown step or slot,
 * a model that is not `provider:model`), 422 `lwir_invalid` (the edited LWIR does not validate or
 * bind), and whatever the start service refuses (the input, quotas, model keys).
 */
export async function forkRun(ports: ForkRunPorts, tenant: string, runId: string, request: ForkRequest): Promise<ForkedRun> {
  const loaded = await loadEndedSource(ports, tenant, runId);
  const { source } = loaded;
  const registered = ports.workflows.get(source.workflowId);
  if (!registered) throw new StartRefusedError("workflow_not_found", `No workflow "${source.workflowId}"`);
  const base = await definitionCapabilities(registered, SCHEMA_NORMALIZER);
  const findings: Finding[] = [];
  const overrides = modelEdits(ports, request.models ?? {}, new Set(base.snapshot.modelSlots.map((s) => s.id)), findings);
  const lwir = stepEdits(request.lwir ?? source.lwir, request.steps ?? {}, findings);
  if (!hasNoErrors(findings))
    throw new RunForkRefusedError(
      "fork_edit_invalid",
      `The fork's edits are invalid: ${findings.map((f) => f.message).join("; ")}`,
      findings,
    );
  const workflow = withRunModelOverrides(registered, overrides);
  const capabilities = await definitionCapabilities(workflow, SCHEMA_NORMALIZER);
  const checked = checkLwir(lwir, capabilities);
  if (!hasNoErrors(checked)) throw new LwirInvalidError(checked);
  const input = request.input === undefined ? source.input : request.input;
  const steps = (lwir as Lwir).steps;
  const reuse = planReuse({ steps, snapshot: capabilities.snapshot, input, memo: loaded.memo, rerun: new Set(), usageOf: loaded.usageOf });
  const plan: ForkPlan = { ...reuse, sourceRunId: runId, versionId: contentAddress(lwir).id };
  if (request.dryRun) return { dryRun: true, ...plan };
  const newRunId = forkRunId(tenant, runId, "fork", request.idempotencyKey);
  const started = await startRun(ports, {
    tenant,
    workflowId: source.workflowId,
    input,
    runId: newRunId,
    trigger: { kind: "fork", id: runId },
    lwir,
    memo: {
      relation: "fork",
      sourceRunId: runId,
      ...(Object.keys(loaded.entry.placement).length > 0 ? { placement: loaded.entry.placement } : {}),
    },
    ...(overrides ? { modelOverrides: overrides } : {}),
    conflictCode: "idempotency_conflict",
    waitMs: request.waitMs,
  });
  await linkToSource(ports, tenant, runId, newRunId, "fork");
  return { dryRun: false, runId: newRunId, view: started.view, created: started.created, ...plan };
}

/** The fork's model choices as overrides; unknown slots and unreadable values become findings. */
function modelEdits(
  ports: ForkRunPorts,
  models: Readonly<Record<string, string>>,
  slots: ReadonlySet<string>,
  findings: Finding[],
): ModelOverrides | undefined {
  const names = Object.keys(models);
  if (names.length === 0) return undefined;
  for (const slot of names)
    if (!slots.has(slot))
      findings.push({
        severity: "error",
        code: "fork.slot_unknown",
        path: `$.models.${slot}`,
        message: `unknown model slot "${slot}"; known: ${[...slots].join(", ")}`,
      });
  const overrides = ports.parseModels(models);
  for (const [key, entry] of Object.entries(overrides))
    if ("invalid" in entry)
      findings.push({ severity: "error", code: "fork.model_invalid", path: `$.models.${key}`, message: entry.invalid });
  return overrides;
}

/** The LWIR with each edited step's `with` merged (a copy); unknown steps become findings. */
function stepEdits(lwir: unknown, edits: ForkRequest["steps"] & object, findings: Finding[]): unknown {
  const ids = Object.keys(edits);
  if (ids.length === 0) return lwir;
  const copy = structuredClone(lwir) as { steps?: { id: string; with?: Record<string, unknown> }[] };
  const steps = Array.isArray(copy?.steps) ? copy.steps : [];
  for (const id of ids) {
    const step = steps.find((s) => s.id === id);
    const edit = edits[id]?.with;
    if (!step) {
      findings.push({
        severity: "error",
        code: "fork.step_unknown",
        path: `$.steps.${id}`,
        message: `unknown step "${id}"; known: ${steps.map((s) => s.id).join(", ")}`,
      });
      continue;
    }
    step.with = { ...step.with, ...edit };
  }
  return copy;
}
