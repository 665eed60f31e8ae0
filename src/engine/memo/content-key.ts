/**
 * @module A step's content key (docs/runs.md, "Restart and forks"): what decides whether a fork or a
 * restart may reuse the source run's recorded result for the step. Equal keys mean the step would
 * be asked the same thing of the same capability, so its recorded answer stands in for a call.
 */
import type { WorkflowDefinitionSnapshot } from "../../identity/definition-snapshot.ts";
import { type Digest, digestJson } from "../../json/digest.ts";
import { renderValue, type TemplateScope } from "../../lwir/evaluate-template.ts";
import { expressionsOf, parseTemplate, stepReferences } from "../../lwir/template.ts";
import type { LwirStep } from "../../lwir/types.ts";

/**
 * The digest of the step's definition — kind, `with` (code files carry their sha256 there),
 * `output`, fan-out, the model slot's resolved provider and model (and the fixer's), the tool's
 * descriptor hash — together with its resolved inputs: every template in it rendered over `scope`
 * and the whole output of every step it reads. Retry policy and timeout are left out: they change
 * how a step is tried, not what it answers.
 */
export function stepContentKey(step: LwirStep, snapshot: WorkflowDefinitionSnapshot, scope: TemplateScope): Digest {
  const definition = {
    uses: step.uses,
    with: step.with,
    output: step.output ?? null,
    forEach: step.forEach ?? null,
    capability: capabilityOf(step, snapshot),
  };
  const reads = Object.fromEntries(stepsRead(step).map((id) => [id, Object.hasOwn(scope.steps, id) ? scope.steps[id] : null]));
  return digestJson({ definition, resolved: { with: rendered(step.with, scope), items: itemsOf(step, scope), reads } });
}

/** The step ids a step's templates read (`{{ steps.<id>… }}`), sorted, once each. */
export function stepsRead(step: LwirStep): string[] {
  const ids = new Set<string>();
  for (const text of templateStrings([step.with, step.forEach?.items ?? null])) {
    const parsed = parseTemplate(text);
    if (!parsed.ok) continue;
    for (const expr of expressionsOf(parsed.parts)) for (const id of stepReferences(expr)) ids.add(id);
  }
  return [...ids].sort();
}

function capabilityOf(step: LwirStep, snapshot: WorkflowDefinitionSnapshot): unknown {
  const slot = (id: string) => {
    const found = snapshot.modelSlots.find((s) => s.id === id);
    return found ? { id, providerId: found.providerId, modelId: found.modelId } : { id, missing: true };
  };
  switch (step.uses) {
    case "ai.generate":
      return { model: slot(step.with.model) };
    case "tool.call":
      return { tool: snapshot.tools.find((t) => t.id === step.with.tool)?.descriptorHash ?? null };
    case "code.run":
      return { fixer: step.onFailure?.fixer ? slot(step.onFailure.fixer.model) : null };
    default:
      return null;
  }
}

/** The templates rendered; a template that does not render here is keyed by its text (the step itself will fail on it). */
function rendered(value: unknown, scope: TemplateScope): unknown {
  try {
    // JSON's round trip drops what rendered to nothing (a missing field), which canonical JSON refuses.
    return JSON.parse(JSON.stringify(renderValue(value, scope) ?? null));
  } catch {
    return { unrendered: value };
  }
}

function itemsOf(step: LwirStep, scope: TemplateScope): unknown {
  return step.forEach ? rendered(step.forEach.items, scope) : null;
}

function templateStrings(values: readonly unknown[]): string[] {
  const out: string[] = [];
  const visit = (v: unknown) => {
    if (typeof v === "string") {
      if (v.includes("{{")) out.push(v);
    } else if (Array.isArray(v)) v.forEach(visit);
    else if (v !== null && typeof v === "object") Object.values(v).forEach(visit);
  };
  values.forEach(visit);
  return out;
}
