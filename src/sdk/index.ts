export type { AuthoredPlan, PlanJson } from "./authored-plan.ts";
export type {
  AttachedMemory,
  MemoryConfig,
  MemoryMode,
  PlannerConfig,
  SandboxConfig,
  TelemetryConfig,
  WorkerConfig,
  WorkflowDefinition,
  WorkflowDefinitionInput,
} from "./define-workflow.ts";
export { DEFAULT_HARNESS_ID, defineWorkflow } from "./define-workflow.ts";
export type { ApprovalRefusalCode } from "./errors/approval-refused-error.ts";
export { APPROVAL_REFUSAL_CODES, ApprovalRefusedError } from "./errors/approval-refused-error.ts";
export { BulkActionRefusedError } from "./errors/bulk-action-refused-error.ts";
// Every named error (test/sdk/errors-exported.test.ts checks none is left out): a user meets them
// thrown from defineWorkflow and the package's functions, as a run's failure cause, or in a log.
export type { CanonicalJsonRejection } from "./errors/canonical-json-error.ts";
export { CanonicalJsonError } from "./errors/canonical-json-error.ts";
export type { ManifestDifference } from "./errors/capability-drift-error.ts";
export { CapabilityDriftError } from "./errors/capability-drift-error.ts";
export type { ChildRunRefusalCode } from "./errors/child-run-refused-error.ts";
export { CHILD_RUN_REFUSAL_CODES, ChildRunRefusedError } from "./errors/child-run-refused-error.ts";
export { DefinitionNotApprovedError } from "./errors/definition-not-approved-error.ts";
export { DefinitionProjectionMissingError } from "./errors/definition-projection-missing-error.ts";
export { EventLogCorruptError } from "./errors/event-log-corrupt-error.ts";
export type { HarnessRef } from "./errors/harness-unknown-error.ts";
export { HarnessUnknownError } from "./errors/harness-unknown-error.ts";
export { InsecureConfigurationError } from "./errors/insecure-configuration-error.ts";
export { LittleError } from "./errors/little-error.ts";
export { LiveValidatorRejectedError } from "./errors/live-validator-rejected-error.ts";
export { LwirInvalidError } from "./errors/lwir-invalid-error.ts";
export { MemoryStoreError } from "./errors/memory-store-error.ts";
export { ModelConfigInvalidError } from "./errors/model-config-invalid-error.ts";
export { ModelProtocolError } from "./errors/model-protocol-error.ts";
export { ModelTimeoutError } from "./errors/model-timeout-error.ts";
export { ModelUnavailableError } from "./errors/model-unavailable-error.ts";
export { NonDeterministicReplayError } from "./errors/non-deterministic-replay-error.ts";
export type { QuotaLimitName } from "./errors/quota-exceeded-error.ts";
export { QuotaExceededError } from "./errors/quota-exceeded-error.ts";
export { RunActiveError } from "./errors/run-active-error.ts";
export { RunDeletedError } from "./errors/run-deleted-error.ts";
export type { RunEndRefusalCode } from "./errors/run-end-refused-error.ts";
export { RUN_END_REFUSAL_CODES, RunEndRefusedError } from "./errors/run-end-refused-error.ts";
export { RunEndedError } from "./errors/run-ended-error.ts";
export { RunForkRefusedError } from "./errors/run-fork-refused-error.ts";
export { RunNotFoundError } from "./errors/run-not-found-error.ts";
export { RunTagsInvalidError } from "./errors/run-tags-invalid-error.ts";
export { RunTerminatedError } from "./errors/run-terminated-error.ts";
export { ScheduleInvalidError } from "./errors/schedule-invalid-error.ts";
export { SecretMissingError } from "./errors/secret-missing-error.ts";
export { SecretUndecryptableError } from "./errors/secret-undecryptable-error.ts";
export { SecretsKeyInvalidError } from "./errors/secrets-key-invalid-error.ts";
export { SecretsKeyMissingError } from "./errors/secrets-key-missing-error.ts";
export { SectionStaleError } from "./errors/section-stale-error.ts";
export type { SignalRefusalCode } from "./errors/signal-refused-error.ts";
export { SIGNAL_REFUSAL_CODES, SignalRefusedError } from "./errors/signal-refused-error.ts";
export type { StartConflictCode, StartRefusalCode } from "./errors/start-refused-error.ts";
export { START_REFUSAL_CODES, StartRefusedError } from "./errors/start-refused-error.ts";
export { TriggerTenantInvalidError } from "./errors/trigger-tenant-invalid-error.ts";
export { UnsupportedSchemaError } from "./errors/unsupported-schema-error.ts";
export { VersionIdCollisionError } from "./errors/version-id-collision-error.ts";
export { WorkflowCallCycleError } from "./errors/workflow-call-cycle-error.ts";
export { WorkflowCalleeMissingError } from "./errors/workflow-callee-missing-error.ts";
export { WorkflowDefinitionError } from "./errors/workflow-definition-error.ts";
export { WorkflowInputValidationError } from "./errors/workflow-input-validation-error.ts";
export { WorkflowMissingToolError } from "./errors/workflow-missing-tool-error.ts";
export { WorkflowNotRegisteredError } from "./errors/workflow-not-registered-error.ts";
export type { Finding, FindingSeverity } from "./finding.ts";
export type { ConcurrencyInput, ConcurrencyLimit, ThrottleLimit } from "./flow-control.ts";
export type { HarnessId } from "./harness-ids.ts";
export { HARNESS_IDS } from "./harness-ids.ts";
export type { ModelIdentity, ModelLimits, ModelSlotDeclaration } from "./model.ts";
export { model, modelIdentity } from "./model.ts";
export type { Schedule, ScheduleEntry, ScheduleInput } from "./schedule.ts";
export type { Skill } from "./skill.ts";
export { skill } from "./skill.ts";
export type { ToolContext, ToolDefinition, ToolRegistry } from "./tool.ts";
export { tool, toolWithEnv } from "./tool.ts";
