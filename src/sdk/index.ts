export type {
  AttachedMemory,
  MemoryConfig,
  MemoryMode,
  PlannerConfig,
  SandboxConfig,
  WorkerConfig,
  WorkflowDefinition,
  WorkflowDefinitionInput,
} from "./define-workflow.ts";
export { DEFAULT_HARNESS_ID, defineWorkflow } from "./define-workflow.ts";
export type { CanonicalJsonRejection } from "./errors/canonical-json-error.ts";
export { CanonicalJsonError } from "./errors/canonical-json-error.ts";
export type { HarnessRef } from "./errors/harness-unknown-error.ts";
export { HarnessUnknownError } from "./errors/harness-unknown-error.ts";
export { LittleError } from "./errors/little-error.ts";
export { LiveValidatorRejectedError } from "./errors/live-validator-rejected-error.ts";
export { LwirInvalidError } from "./errors/lwir-invalid-error.ts";
export { ScheduleInvalidError } from "./errors/schedule-invalid-error.ts";
export { UnsupportedSchemaError } from "./errors/unsupported-schema-error.ts";
export { WorkflowDefinitionError } from "./errors/workflow-definition-error.ts";
export { WorkflowInputValidationError } from "./errors/workflow-input-validation-error.ts";
export { WorkflowMissingToolError } from "./errors/workflow-missing-tool-error.ts";
export type { Finding, FindingSeverity } from "./finding.ts";
export type { HarnessId } from "./harness-ids.ts";
export { HARNESS_IDS } from "./harness-ids.ts";
export type { ModelIdentity, ModelSlotDeclaration } from "./model.ts";
export { model, modelIdentity } from "./model.ts";
export type { Schedule, ScheduleEntry, ScheduleInput } from "./schedule.ts";
export type { Skill } from "./skill.ts";
export { skill } from "./skill.ts";
export type { ToolContext, ToolDefinition, ToolRegistry } from "./tool.ts";
export { tool, toolWithEnv } from "./tool.ts";
