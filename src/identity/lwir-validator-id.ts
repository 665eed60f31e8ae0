/**
 * Which LWIR validator judged a version; the lock's `validationHash` records its id and findings.
 * `@1` is structure, templates' references and the binding pass; `@2` adds the static type pass
 * over templates (docs/lwir.md, "Types"); `@3` shows the planner the wait kinds (`wait.sleep`,
 * `wait.signal`) in its prompt and `submit_lwir` schema, which `@1` and `@2` runs keep byte for byte
 * (their recorded planner calls are hashed with them). A run records the validator it started with
 * (`RunRequested.lwirValidator`; absent = `@1`) and keeps it for life, so a finding added in a
 * later validator never re-derives an older run's lock differently (docs/identity.md).
 */
export type LwirValidatorId = "little-workflow-lwir-validator@1" | "little-workflow-lwir-validator@2" | "little-workflow-lwir-validator@3";

/** The validator new runs, planner sessions and `POST /v1/lwir/validate` use. */
export const LWIR_VALIDATOR_ID: LwirValidatorId = "little-workflow-lwir-validator@3";

/** The validator of a run whose `RunRequested` names none (started before `@2`). */
export const LEGACY_LWIR_VALIDATOR_ID: LwirValidatorId = "little-workflow-lwir-validator@1";

/** The validator's number: what the prompt's generated parts are keyed by. */
export function validatorVersion(validator: LwirValidatorId): 1 | 2 | 3 {
  return Number(validator.slice(validator.indexOf("@") + 1)) as 1 | 2 | 3;
}
