/**
 * Which LWIR validator judged a version; the lock's `validationHash` records its id and findings.
 * `@1` is structure, templates' references and the binding pass; `@2` adds the static type pass
 * over templates (docs/lwir.md, "Types"). A run records the validator it started with
 * (`RunRequested.lwirValidator`; absent = `@1`) and keeps it for life, so a finding added in a
 * later validator never re-derives an older run's lock differently (docs/identity.md).
 */
export type LwirValidatorId = "little-workflow-lwir-validator@1" | "little-workflow-lwir-validator@2";

/** The validator new runs, planner sessions and `POST /v1/lwir/validate` use. */
export const LWIR_VALIDATOR_ID: LwirValidatorId = "little-workflow-lwir-validator@2";

/** The validator of a run whose `RunRequested` names none (started before `@2`). */
export const LEGACY_LWIR_VALIDATOR_ID: LwirValidatorId = "little-workflow-lwir-validator@1";
