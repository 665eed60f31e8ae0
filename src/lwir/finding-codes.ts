/**
 * Every finding code `validateLwir` and the binding pass can emit, with its meaning. Codes are
 * stable API: tools and planners branch on them. docs/lwir.md lists the same table (a test keeps
 * the two equal).
 */
export const LWIR_FINDING_CODES = {
  "document.not_object": "The LWIR document is not a JSON object.",
  "document.not_json": "The document holds a value JSON cannot represent (NaN, Infinity, undefined, a function, a Date, a cycle…).",
  "document.too_large": "The canonical document is larger than the limit (4 MiB).",
  "document.too_deep": "The document nests deeper than the limit.",
  "field.required": "A required field is missing.",
  "field.invalid_type": "A field has the wrong JSON type.",
  "field.unknown": "A field this LWIR version does not define; LWIR is closed so every hashed byte means something.",
  "api_version.unsupported": "`apiVersion` is not `littleworkflow.dev/v0.1`.",
  "kind.unsupported": "`kind` is not `Workflow`.",
  "metadata.invalid_name": "`metadata.name` is not a valid workflow id.",
  "metadata.invalid_version": "`metadata.version` is not a semantic version (`MAJOR.MINOR.PATCH`).",
  "schema.invalid": "A JSON Schema is not an object or boolean, or uses an unknown `type`.",
  "permissions.duplicate": "A permissions list names the same entry twice.",
  "permissions.invalid_entry": "A permissions entry is not a non-empty string.",
  "steps.empty": "The workflow has no steps.",
  "steps.too_many": "The workflow has more steps than the limit (1,000).",
  "step.invalid_id": "A step id is not lowercase letters, digits, `_` or `-`, starting with a letter (at most 64).",
  "step.duplicate_id": "Two steps share an id.",
  "step.unknown_kind":
    "`uses` is not one of the known step kinds (`ai.generate`, `tool.call`, `code.run`, `decision`, `wait.sleep`, `wait.signal`, `workflow.run`).",
  "step.needs_unknown": "`needs` names a step that does not exist.",
  "step.needs_self": "A step needs itself.",
  "step.needs_duplicate": "`needs` names the same step twice.",
  "step.model_not_permitted": "`with.model` is not in `permissions.models`.",
  "step.tool_not_permitted": "`with.tool` is not in `permissions.tools`.",
  "step.invalid_retry": "`retry.maxAttempts` is not an integer from 1 to 10, or `retry.backoffMs` is not an integer from 0 to 3,600,000.",
  "step.invalid_timeout": "`timeoutMs` is not an integer from 1 to 86,400,000.",
  "step.invalid_parameter": "A model parameter is out of range (`temperature` 0–2, `maxOutputTokens` 1–1,000,000).",
  "graph.cycle": "The steps' `needs` form a cycle.",
  "graph.no_terminal": "No step is terminal (every step is needed by another).",
  "graph.multiple_terminals": "More than one step is terminal; exactly one step's output is the workflow's output.",
  "output.unknown_mode": "`output.mode` is not `text`, `object`, `array`, `choice` or `json`.",
  "output.schema_required": "`object` and `array` outputs need a `schema`.",
  "output.schema_mode_mismatch":
    'The output schema\'s `type` does not match its mode (`object` ⇒ `type: "object"`, `array` ⇒ `type: "array"`).',
  "output.invalid_choice": "A `choice` output needs `values`: a non-empty list of distinct strings.",
  "output.unexpected_field": "The output mode does not take this field (e.g. `values` on `object`, `schema` on `text`).",
  "code.invalid_file_name": "A code.run file name is empty, absolute, has `..` or `\\\\`, or is longer than 128 characters.",
  "code.unsupported_language": "The entrypoint is not a `.ts`, `.js` or `.mjs` file.",
  "code.entrypoint_missing": "`with.entrypoint` is not one of `with.files`.",
  "code.file_digest_mismatch": "A file's `sha256` is not the digest of its content.",
  "code.invalid_digest": "A file's `sha256` is not `sha256:` followed by 64 lowercase hex digits.",
  "code.invalid_sandbox": "`with.sandbox` needs `network`, `env` and `fs`, each `deny` or `allow`.",
  "code.network_not_permitted": "The sandbox allows network but `permissions.network` is empty.",
  "code.invalid_limits": "`with.limits.cpuMs` / `wallMs` is not an integer from 1 to 300,000.",
  "fixer.wrong_step_kind": "`onFailure.fixer` is only allowed on `code.run` steps.",
  "fixer.model_not_permitted": "The fixer's `model` is not in `permissions.models`.",
  "fixer.invalid_max_attempts": "The fixer's `maxAttempts` is not an integer from 1 to 5.",
  "fixer.missing_system": "The fixer's `system` prompt is empty.",
  "template.syntax": "A `{{ … }}` expression does not parse in the template grammar.",
  "template.unterminated": "A `{{` has no closing `}}`.",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: names the wrong syntax on purpose
  "template.wrong_delimiters": "A reference is written `${input.x}`, `{input.x}` or `{{{input.x}}}`; LWIR templates are `{{ input.x }}`.",
  "template.unknown_root": "An expression starts with something other than `input` or `steps.<id>.output`.",
  "template.unknown_step": "An expression reads `steps.<id>` for a step that does not exist.",
  "template.step_not_upstream":
    "An expression reads a step that is not upstream of this one through `needs`, so its output may not exist yet.",
  "template.forbidden_property": "An expression reads `__proto__`, `prototype` or `constructor`.",
  "template.unknown_function": "An expression calls a function outside the fixed list.",
  "template.function_arity": "A template function is called with the wrong number of arguments.",
  "template.unknown_input_field": "An expression reads an input field the input schema does not declare (warning).",
  "template.skipped_branch":
    "A step that joins a decision's branches reads one branch's output directly; that branch may have been skipped, so read it through `default(…)`.",
  "template.item_outside_fan_out": "An expression reads `item` in a step without `forEach`.",
  "template.type_mismatch":
    "An expression's type (inferred from the schemas it reads) can never be what the schema it lands in accepts: a tool's input field, a prompt, a fan-out's `items`, or the terminal step's output against the workflow's output (validator `@2`).",
  "template.unknown_field":
    "An expression reads a field the schema it reads does not have: an error where the schema is closed (the value would be missing), a warning where it allows other fields (validator `@2`).",
  "template.may_be_null":
    "A join's `default(…)` does not cover every branch, so it is missing when another branch ran, and the field it lands in does not accept null (validator `@2`).",
  "decision.invalid_cases": "`with.cases` is not a non-empty list of `{ when, step }`.",
  "decision.invalid_when": "A case's `when` is not exactly one `{{ … }}` expression.",
  "decision.missing_default": "A decision has no `with.default` step.",
  "decision.unknown_target": "A case's `step` or the `default` names a step that does not exist.",
  "decision.target_not_dependent":
    "A decision's target neither needs the decision nor is upstream of it, so the decision cannot choose it.",
  "decision.loop_without_max_visits": "A decision's target is upstream of it (a loop) but the decision has no `with.maxVisits`.",
  "decision.invalid_max_visits": "`with.maxVisits` is not an integer from 1 to 100.",
  "fanout.invalid_items": "`forEach.items` is not exactly one `{{ … }}` expression (it must give the array to fan out over).",
  "fanout.invalid_item_key": "`forEach.itemKey` is not a template string.",
  "fanout.invalid_max_concurrency": "`forEach.maxConcurrency` is not an integer from 1 to 64.",
  "fanout.invalid_failure_mode": "`forEach.failureMode` is not `fail_fast` or `all_settled`.",
  "binding.workflow_name_mismatch": "`metadata.name` is not the workflow definition's id.",
  "binding.input_schema_mismatch": "LWIR input schema must match the workflow definition's input schema.",
  "binding.output_schema_mismatch": "LWIR output schema must match the workflow definition's output schema.",
  "binding.model_not_in_snapshot": "`permissions.models` names a model slot the definition does not declare.",
  "binding.tool_not_in_snapshot": "`permissions.tools` names a tool the definition does not provide.",
  "binding.step_model_not_allowed": "A step's model (or its fixer's) is not an execution model slot of the definition.",
  "binding.step_tool_not_allowed": "A tool.call step's tool is not a tool of the definition.",
  "binding.secret_not_in_snapshot": "`permissions.secrets` names a secret the definition does not declare.",
  "binding.required_tool_not_called":
    "The definition's `requiredTools` names a tool that no step calls, or that some path through the decisions skips; every required tool must be called whichever cases the decisions choose.",
  "binding.tool_input_mismatch":
    "A tool.call's `with.input` names a field the tool's input schema does not have, misses a required one, or holds a literal value the schema refuses.",
  "binding.output_mode_mismatch":
    "The terminal step's `output` mode gives values of another JSON type than the workflow's requested output (an object for a text request); copy the task's `requestedOutput`.",
  "binding.network_not_allowed": "`permissions.network` names a host the definition's `network` allowlist does not have.",
  "wait.field_not_allowed": "A `wait.sleep` or `wait.signal` step has `retry`, `timeoutMs` or `forEach`, which waits do not take.",
  "wait.invalid_sleep": "A `wait.sleep` needs exactly one of `with.durationMs` and `with.until`.",
  "wait.invalid_duration": "`with.durationMs` is not an integer from 1 to 31,536,000,000 (365 days).",
  "wait.invalid_until": "`with.until` is not a template string, or a literal that is no ISO-8601 instant.",
  "wait.invalid_signals": "`with.signals` is not a non-empty list of distinct signal names (`^[a-z][a-z0-9_.-]{0,63}$`).",
  "wait.invalid_timeout": "A `wait.signal`'s `with.timeoutMs` is not an integer from 1 to 31,536,000,000 (365 days).",
  "binding.signal_not_declared":
    "A `wait.signal` names a signal the workflow does not declare; declare it in `defineWorkflow({ signals })` or wait for a declared one.",
  "binding.workflow_not_declared":
    "A workflow.run's `with.workflow` is not a workflow the definition may call; use an id from the task's `callableWorkflows` (the definition declares them in `workflows`).",
  "binding.workflow_input_mismatch":
    "A workflow.run's `with.input` names a field the callee's input schema does not have, misses a required one, or holds a literal value the schema refuses.",
  "binding.workflow_output_mismatch":
    'A workflow.run\'s `output` mode gives values of another JSON type than the callee\'s output; copy the callee\'s `requestedOutput` from `callableWorkflows`, or write `{ "mode": "json" }`.',
} as const;

export type LwirFindingCode = keyof typeof LWIR_FINDING_CODES;
