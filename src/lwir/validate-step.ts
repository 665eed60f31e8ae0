import { childPath } from "../sdk/json-path.ts";
import type { FindingSink } from "./findings-sink.ts";
import {
  AI_GENERATE_WITH,
  bounds,
  DECISION_CASE,
  DECISION_WITH,
  FIXED_OUTPUT_KINDS,
  FOR_EACH,
  fieldSummary,
  RETRY,
  STEP_FIELD_NAMES,
  stepShape,
  TOOL_CALL_WITH,
  WITH_SHAPES,
  WORKFLOW_RUN_WITH,
} from "./lwir-spec.ts";
import { parseTemplate } from "./template.ts";
import { STEP_KINDS, type StepKind } from "./types.ts";
import { checkCodeRun, checkFixer } from "./validate-code-run.ts";
import { checkOutputMode } from "./validate-output.ts";
import { checkTemplates, type TemplateScope } from "./validate-templates.ts";
import { checkWaitSignal, checkWaitSleep, checkWaitStepFields } from "./validate-waits.ts";

export const STEP_ID_PATTERN = /^[a-z][a-z0-9_-]{0,63}$/;
const OUTPUT_HINT =
  '{ "mode": "text" } | { "mode": "object", "schema": {…} } | { "mode": "array", "schema": {…} } | { "mode": "choice", "values": [...] } | { "mode": "json" }; the terminal step\'s output is the task\'s requestedOutput';

/**
 * What the document is compiled for, used only to make findings say what to write (the slot ids
 * and tool ids to choose from); validity never depends on it.
 */
export type ValidationHints = { readonly models?: readonly string[]; readonly tools?: readonly string[] };

/** What a step is checked against: the document's permissions and the template scope. */
export type StepContext = {
  readonly models: ReadonlySet<string>;
  readonly tools: ReadonlySet<string>;
  readonly networkPermitted: boolean;
  readonly scope: TemplateScope;
  /** Each step's `needs`, to check that a decision's targets depend on it. */
  readonly needsOf: ReadonlyMap<string, readonly string[]>;
  /** Slot and tool ids to name in messages. */
  readonly hints?: ValidationHints;
};

function isStepKind(value: unknown): value is StepKind {
  return (STEP_KINDS as readonly unknown[]).includes(value);
}

/** What `with` must hold for a kind, with the ids to choose from where the document or task gives them. */
export function withHint(kind: StepKind, ctx: StepContext): string {
  const models = [...(ctx.hints?.models ?? ctx.models)];
  const tools = [...(ctx.hints?.tools ?? ctx.tools)];
  const fields = fieldSummary(WITH_SHAPES[kind])
    .replace(/^model\b/, `model (a slot id: ${models.join(", ") || "see permissions.models"})`)
    .replace(/^tool\b/, `tool (a tool id: ${tools.join(", ") || "see permissions.tools"})`);
  return `for ${kind}: { ${fields} }`;
}

/** Checks one step's fields, its kind-specific `with`, its output, fixer and templates. */
export function checkStep(sink: FindingSink, step: Record<string, unknown>, path: string, stepCtx: StepContext): void {
  sink.closed(step, STEP_FIELD_NAMES, path);
  const fanOut = step.forEach !== undefined;
  if (fanOut) checkFanOut(sink, step.forEach, `${path}.forEach`, stepCtx.scope);
  // Inside a fan-out, templates may read `item`.
  const ctx: StepContext = fanOut ? { ...stepCtx, scope: { ...stepCtx.scope, inFanOut: true } } : stepCtx;
  const kind = step.uses;
  // `with` depends on the kind: without a known kind it cannot be checked, and the finding says so.
  const unchecked = " (with and output were not checked: their fields depend on uses)";
  if (kind === undefined) sink.missing(`${path}.uses`, `one of ${STEP_KINDS.join(", ")}${unchecked}`);
  else if (!isStepKind(kind)) {
    sink.error(
      "step.unknown_kind",
      `${path}.uses`,
      `uses ${JSON.stringify(kind)} is not one of ${STEP_KINDS.join(", ")}${kindHint(kind, ctx)}${unchecked}`,
    );
  }
  if (step.description !== undefined && typeof step.description !== "string")
    sink.error("field.invalid_type", `${path}.description`, `${path}.description must be a string`);
  // Without a known kind, whether output is required is unknown too (a decision needs none).
  if (step.output === undefined) {
    if (kind !== "decision" && isStepKind(kind) && !FIXED_OUTPUT_KINDS.includes(kind)) sink.missing(`${path}.output`, OUTPUT_HINT);
  } else checkOutputMode(sink, step.output, `${path}.output`);
  if (step.retry !== undefined) {
    const retry = sink.object(step.retry, `${path}.retry`);
    if (retry) {
      sink.closed(retry, RETRY, `${path}.retry`);
      if (retry.maxAttempts === undefined) sink.missing(`${path}.retry.maxAttempts`, RETRY.fields.maxAttempts?.doc);
      sink.integer(retry.maxAttempts, ...bounds(RETRY, "maxAttempts"), "step.invalid_retry", `${path}.retry.maxAttempts`);
      sink.integer(retry.backoffMs, ...bounds(RETRY, "backoffMs"), "step.invalid_retry", `${path}.retry.backoffMs`);
    }
  }
  sink.integer(step.timeoutMs, ...bounds(stepShape("ai.generate"), "timeoutMs"), "step.invalid_timeout", `${path}.timeoutMs`);
  if (typeof kind === "string" && isStepKind(kind) && FIXED_OUTPUT_KINDS.includes(kind)) checkWaitStepFields(sink, step, path, kind);
  if (step.onFailure !== undefined) checkFixer(sink, step.onFailure, `${path}.onFailure`, kind, ctx.models);
  // A missing `with` is reported once and its fields are still checked against {}; `null` is a type error.
  const rawWith = sink.required(step, "with", path, isStepKind(kind) ? withHint(kind, ctx) : undefined);
  const w = rawWith === undefined ? {} : sink.object(rawWith, `${path}.with`);
  if (!w) return;
  const withPath = `${path}.with`;
  switch (kind) {
    case "ai.generate":
      checkAiGenerate(sink, w, withPath, ctx);
      break;
    case "tool.call":
      checkToolCall(sink, w, withPath, ctx);
      break;
    case "code.run":
      checkCodeRun(sink, w, withPath, ctx.networkPermitted);
      if (w.input !== undefined) checkTemplates(sink, w.input, `${withPath}.input`, ctx.scope);
      break;
    case "decision":
      checkDecision(sink, w, withPath, ctx, String(step.id));
      break;
    case "wait.sleep":
      checkWaitSleep(sink, w, withPath, ctx.scope);
      break;
    case "wait.signal":
      checkWaitSignal(sink, w, withPath);
      break;
    case "workflow.run":
      checkWorkflowRun(sink, w, withPath, ctx);
      break;
    default:
      break;
  }
}

/** When `uses` names a tool or a model slot, say how to call it. */
function kindHint(kind: unknown, ctx: StepContext): string {
  const tools = new Set([...(ctx.hints?.tools ?? []), ...ctx.tools]);
  const models = new Set([...(ctx.hints?.models ?? []), ...ctx.models]);
  if (typeof kind !== "string") return "";
  if (tools.has(kind)) return `. To call the tool "${kind}", write "uses": "tool.call" and "with": { "tool": "${kind}", "input": {…} }`;
  if (models.has(kind))
    return `. To call the model slot "${kind}", write "uses": "ai.generate" and "with": { "model": "${kind}", "prompt": "…" }`;
  return "";
}

function checkAiGenerate(sink: FindingSink, w: Record<string, unknown>, path: string, ctx: StepContext): void {
  sink.closed(w, AI_GENERATE_WITH, path);
  const model = sink.string(w, "model", path, { hint: withHint("ai.generate", ctx) });
  if (model !== undefined && !ctx.models.has(model))
    sink.error(
      "step.model_not_permitted",
      `${path}.model`,
      `model "${model}" is not in permissions.models (${[...ctx.models].join(", ") || "empty"}); use a slot id from the task's workflowSnapshot.modelSlots and list it there`,
    );
  const prompt = sink.string(w, "prompt", path, { hint: 'the user prompt, a template such as "Summarize: {{ input.text }}"' });
  if (prompt !== undefined) checkTemplates(sink, prompt, `${path}.prompt`, ctx.scope);
  const system = sink.string(w, "system", path, { optional: true });
  if (system !== undefined) checkTemplates(sink, system, `${path}.system`, ctx.scope);
  const t = w.temperature;
  if (t !== undefined && (typeof t !== "number" || t < 0 || t > 2))
    sink.error("step.invalid_parameter", `${path}.temperature`, "temperature is a number from 0 to 2");
  sink.integer(w.maxOutputTokens, ...bounds(AI_GENERATE_WITH, "maxOutputTokens"), "step.invalid_parameter", `${path}.maxOutputTokens`);
}

function checkToolCall(sink: FindingSink, w: Record<string, unknown>, path: string, ctx: StepContext): void {
  sink.closed(w, TOOL_CALL_WITH, path);
  const tool = sink.string(w, "tool", path, { hint: withHint("tool.call", ctx) });
  if (tool !== undefined && !ctx.tools.has(tool))
    sink.error(
      "step.tool_not_permitted",
      `${path}.tool`,
      `tool "${tool}" is not in permissions.tools (${[...ctx.tools].join(", ") || "empty"}); use a tool id from the task's workflowSnapshot.tools and list it there`,
    );
  if (w.input !== undefined) {
    if (sink.object(w.input, `${path}.input`)) checkTemplates(sink, w.input, `${path}.input`, ctx.scope);
  }
}

/** A workflow.run names its callee (which the binding pass checks is declared) and gives an object input of templates. */
function checkWorkflowRun(sink: FindingSink, w: Record<string, unknown>, path: string, ctx: StepContext): void {
  sink.closed(w, WORKFLOW_RUN_WITH, path);
  sink.string(w, "workflow", path, { hint: "the id of a workflow this one may call, from the task's callableWorkflows" });
  if (w.input !== undefined) {
    if (sink.object(w.input, `${path}.input`)) checkTemplates(sink, w.input, `${path}.input`, ctx.scope);
  }
}

/** Reads `needs` as a list of step ids, recording malformed and duplicate entries. */
export function readNeeds(sink: FindingSink, step: Record<string, unknown>, path: string): string[] {
  const needs = step.needs;
  if (needs === undefined) return [];
  if (!Array.isArray(needs)) {
    sink.error("field.invalid_type", `${path}.needs`, `${path}.needs must be a list of step ids`);
    return [];
  }
  // A Set, not Array#includes: a 4 MiB document can hold hundreds of thousands of entries.
  const out = new Set<string>();
  needs.forEach((dep, i) => {
    const at = childPath(`${path}.needs`, i);
    if (typeof dep !== "string") sink.error("field.invalid_type", at, `${at} must be a step id`);
    else if (out.has(dep)) sink.warn("step.needs_duplicate", at, `needs names "${dep}" twice`);
    else out.add(dep);
  });
  return [...out];
}

/** Checks `forEach`: one whole-template `items`, an optional template `itemKey`, bounded concurrency, a known failure mode. */
function checkFanOut(sink: FindingSink, value: unknown, path: string, scope: TemplateScope): void {
  const fanOut = sink.object(value, path);
  if (!fanOut) return;
  sink.closed(fanOut, FOR_EACH, path);
  const items = fanOut.items;
  const parsed = typeof items === "string" ? parseTemplate(items) : null;
  const whole = parsed?.ok === true && parsed.parts.length === 1 && parsed.parts[0]?.kind === "expr";
  if (!whole)
    sink.error(
      "fanout.invalid_items",
      `${path}.items`,
      `${path}.items must be exactly one {{ … }} expression giving the array, with nothing around it, e.g. "{{ steps.split.output.parts }}"; you gave ${JSON.stringify(items)}`,
    );
  else checkTemplates(sink, items, `${path}.items`, scope);
  if (fanOut.itemKey !== undefined) {
    if (typeof fanOut.itemKey !== "string" || fanOut.itemKey === "") sink.error("fanout.invalid_item_key", `${path}.itemKey`);
    else checkTemplates(sink, fanOut.itemKey, `${path}.itemKey`, { ...scope, inFanOut: true });
  }
  sink.integer(fanOut.maxConcurrency, ...bounds(FOR_EACH, "maxConcurrency"), "fanout.invalid_max_concurrency", `${path}.maxConcurrency`);
  if (fanOut.failureMode !== undefined && fanOut.failureMode !== "fail_fast" && fanOut.failureMode !== "all_settled") {
    sink.error("fanout.invalid_failure_mode", `${path}.failureMode`);
  }
}

/** A comparison or logic operator inside `{{ … }}`, which the grammar does not have. */
const OPERATOR = /\{\{[^}]*(==|!=|&&|\|\||>=|<=|[^=!<>-][<>])/;

/** Checks a decision: cases of one-expression `when` and a `then` target, a default, targets that need it. */
function checkDecision(sink: FindingSink, w: Record<string, unknown>, path: string, ctx: StepContext, stepId: string): void {
  sink.closed(w, DECISION_WITH, path);
  sink.integer(w.maxVisits, ...bounds(DECISION_WITH, "maxVisits"), "decision.invalid_max_visits", `${path}.maxVisits`);
  const target = (value: unknown, at: string) => {
    if (value === undefined) sink.missing(at, "the id of the step to choose (that step must list this decision in its needs)");
    else if (typeof value !== "string" || !ctx.scope.stepIds.has(value)) {
      sink.error(
        "decision.unknown_target",
        at,
        `${at} names ${JSON.stringify(value)}, which is not a step (steps: ${[...ctx.scope.stepIds].join(", ")})`,
      );
    } else if (ctx.scope.upstream.has(value)) {
      // A loop back to a step upstream: bounded, or refused.
      if (w.maxVisits === undefined)
        sink.error("decision.loop_without_max_visits", at, `${at} loops back to "${value}"; a loop needs with.maxVisits`);
    } else if (!(ctx.needsOf.get(value) ?? []).includes(stepId)) {
      sink.error(
        "decision.target_not_dependent",
        at,
        `step "${value}" must need "${stepId}" to be chosen by it: add "${stepId}" to its needs`,
      );
    }
  };
  const cases = w.cases;
  if (!Array.isArray(cases) || cases.length === 0)
    sink.error(
      "decision.invalid_cases",
      `${path}.cases`,
      `${path}.cases must be a non-empty list of { "when": "{{ … }}", "step": "<step id>" }`,
    );
  else {
    cases.forEach((c, i) => {
      const at = childPath(`${path}.cases`, i);
      const entry = sink.object(c, at);
      if (!entry) return;
      sink.closed(entry, DECISION_CASE, at);
      const when = entry.when;
      const parsed = typeof when === "string" ? parseTemplate(when) : null;
      if (!(parsed?.ok === true && parsed.parts.length === 1 && parsed.parts[0]?.kind === "expr"))
        sink.error(
          "decision.invalid_when",
          `${at}.when`,
          typeof when === "string" && OPERATOR.test(when)
            ? `${at}.when uses an operator; templates have none: call eq(a, b), ne, gt, gte, lt, lte, and, or, not, e.g. "{{ eq(steps.classify.output, "urgent") }}"`
            : `${at}.when must be exactly one {{ … }} expression with nothing around it, e.g. "{{ eq(steps.classify.output, "urgent") }}"`,
        );
      else checkTemplates(sink, when, `${at}.when`, ctx.scope);
      target(entry.step, `${at}.step`);
    });
  }
  if (w.default === undefined)
    sink.error("decision.missing_default", `${path}.default`, `${path}.default is required: the step id chosen when no case is truthy`);
  else target(w.default, `${path}.default`);
}
