/**
 * @module The plan a workflow's author states (`defineWorkflow({ plan })`): an LWIR document the
 * offline model submits as its plan, and a real planner is shown as the author's suggestion. It is
 * part of the definition's snapshot, so changing it changes the definition hash.
 */

/** A JSON value, as LWIR holds (no `undefined`, functions, Dates or class instances). */
export type PlanJson = string | number | boolean | null | readonly PlanJson[] | { readonly [key: string]: PlanJson };

/**
 * An LWIR document (docs/lwir.md). A string that is exactly one of `"<workflow-id>"`,
 * `"<input-schema>"`, `"<output-schema>"`, `"<requested-output>"` or `"<model-slot>"` stands for
 * that value of the task, so the plan keeps binding when a schema changes.
 */
export type AuthoredPlan = {
  readonly apiVersion: string;
  readonly kind: "Workflow";
  readonly steps: readonly PlanJson[];
  readonly [field: string]: PlanJson;
};

/** Shape checks only: the plan is validated and bound like any planner's draft when it is submitted. */
export function checkAuthoredPlan(plan: unknown, fail: (path: string, code: string, message: string) => void): void {
  if (plan === undefined) return;
  const doc = plan as { kind?: unknown; steps?: unknown } | null;
  if (typeof doc !== "object" || doc === null || Array.isArray(doc) || doc.kind !== "Workflow" || !Array.isArray(doc.steps)) {
    fail("$.plan", "definition.invalid_plan", 'plan is an LWIR document: { apiVersion, kind: "Workflow", …, steps: [...] } (docs/lwir.md)');
    return;
  }
  if (!isJson(plan))
    fail("$.plan", "definition.invalid_plan", "plan must be plain JSON (it is hashed): no undefined, functions, Dates or NaN");
}

function isJson(value: unknown): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJson);
  if (typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value as Record<string, unknown>).every(isJson);
}
