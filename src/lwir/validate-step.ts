import { childPath } from "../sdk/json-path.ts";
import type { FindingSink } from "./findings-sink.ts";
import { parseTemplate } from "./template.ts";
import { STEP_KINDS } from "./types.ts";
import { checkCodeRun, checkFixer } from "./validate-code-run.ts";
import { checkOutputMode } from "./validate-output.ts";
import { checkTemplates, type TemplateScope } from "./validate-templates.ts";

export const STEP_ID_PATTERN = /^[a-z][a-z0-9_-]{0,63}$/;
const STEP_FIELDS = ["id", "uses", "needs", "with", "output", "onFailure", "retry", "timeoutMs", "description", "forEach"];

/** What a step is checked against: the document's permissions and the template scope. */
export type StepContext = {
  readonly models: ReadonlySet<string>;
  readonly tools: ReadonlySet<string>;
  readonly networkPermitted: boolean;
  readonly scope: TemplateScope;
  /** Each step's `needs`, to check that a decision's targets depend on it. */
  readonly needsOf: ReadonlyMap<string, readonly string[]>;
};

/** Checks one step's fields, its kind-specific `with`, its output, fixer and templates. */
export function checkStep(sink: FindingSink, step: Record<string, unknown>, path: string, stepCtx: StepContext): void {
  sink.closed(step, STEP_FIELDS, path);
  const fanOut = step.forEach !== undefined;
  if (fanOut) checkFanOut(sink, step.forEach, `${path}.forEach`, stepCtx.scope);
  // Inside a fan-out, templates may read `item`.
  const ctx: StepContext = fanOut ? { ...stepCtx, scope: { ...stepCtx.scope, inFanOut: true } } : stepCtx;
  const kind = step.uses;
  if (kind === undefined) sink.error("field.required", `${path}.uses`, `${path}.uses is required`);
  else if (!(STEP_KINDS as readonly unknown[]).includes(kind)) {
    sink.error("step.unknown_kind", `${path}.uses`, `uses ${JSON.stringify(kind)} is not one of ${STEP_KINDS.join(", ")}`);
  }
  if (step.description !== undefined && typeof step.description !== "string")
    sink.error("field.invalid_type", `${path}.description`, `${path}.description must be a string`);
  if (step.output === undefined) {
    if (kind !== "decision") sink.error("field.required", `${path}.output`, `${path}.output is required`);
  } else checkOutputMode(sink, step.output, `${path}.output`);
  if (step.retry !== undefined) {
    const retry = sink.object(step.retry, `${path}.retry`);
    if (retry) {
      sink.closed(retry, ["maxAttempts", "backoffMs"], `${path}.retry`);
      if (retry.maxAttempts === undefined)
        sink.error("field.required", `${path}.retry.maxAttempts`, `${path}.retry.maxAttempts is required`);
      sink.integer(retry.maxAttempts, 1, 10, "step.invalid_retry", `${path}.retry.maxAttempts`);
      sink.integer(retry.backoffMs, 0, 3_600_000, "step.invalid_retry", `${path}.retry.backoffMs`);
    }
  }
  sink.integer(step.timeoutMs, 1, 86_400_000, "step.invalid_timeout", `${path}.timeoutMs`);
  if (step.onFailure !== undefined) checkFixer(sink, step.onFailure, `${path}.onFailure`, kind, ctx.models);
  // A missing `with` is reported once and its fields are still checked against {}; `null` is a type error.
  const rawWith = sink.required(step, "with", path);
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
    default:
      break;
  }
}

function checkAiGenerate(sink: FindingSink, w: Record<string, unknown>, path: string, ctx: StepContext): void {
  sink.closed(w, ["model", "prompt", "system", "temperature", "maxOutputTokens"], path);
  const model = sink.string(w, "model", path);
  if (model !== undefined && !ctx.models.has(model))
    sink.error("step.model_not_permitted", `${path}.model`, `model "${model}" is not in permissions.models`);
  const prompt = sink.string(w, "prompt", path);
  if (prompt !== undefined) checkTemplates(sink, prompt, `${path}.prompt`, ctx.scope);
  const system = sink.string(w, "system", path, { optional: true });
  if (system !== undefined) checkTemplates(sink, system, `${path}.system`, ctx.scope);
  const t = w.temperature;
  if (t !== undefined && (typeof t !== "number" || t < 0 || t > 2))
    sink.error("step.invalid_parameter", `${path}.temperature`, "temperature is a number from 0 to 2");
  sink.integer(w.maxOutputTokens, 1, 1_000_000, "step.invalid_parameter", `${path}.maxOutputTokens`);
}

function checkToolCall(sink: FindingSink, w: Record<string, unknown>, path: string, ctx: StepContext): void {
  sink.closed(w, ["tool", "input"], path);
  const tool = sink.string(w, "tool", path);
  if (tool !== undefined && !ctx.tools.has(tool))
    sink.error("step.tool_not_permitted", `${path}.tool`, `tool "${tool}" is not in permissions.tools`);
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
  sink.closed(fanOut, ["items", "itemKey", "maxConcurrency", "failureMode"], path);
  const items = fanOut.items;
  const parsed = typeof items === "string" ? parseTemplate(items) : null;
  const whole = parsed?.ok === true && parsed.parts.length === 1 && parsed.parts[0]?.kind === "expr";
  if (!whole) sink.error("fanout.invalid_items", `${path}.items`);
  else checkTemplates(sink, items, `${path}.items`, scope);
  if (fanOut.itemKey !== undefined) {
    if (typeof fanOut.itemKey !== "string" || fanOut.itemKey === "") sink.error("fanout.invalid_item_key", `${path}.itemKey`);
    else checkTemplates(sink, fanOut.itemKey, `${path}.itemKey`, { ...scope, inFanOut: true });
  }
  sink.integer(fanOut.maxConcurrency, 1, 64, "fanout.invalid_max_concurrency", `${path}.maxConcurrency`);
  if (fanOut.failureMode !== undefined && fanOut.failureMode !== "fail_fast" && fanOut.failureMode !== "all_settled") {
    sink.error("fanout.invalid_failure_mode", `${path}.failureMode`);
  }
}

/** Checks a decision: cases of one-expression `when` and a `then` target, a default, targets that need it. */
function checkDecision(sink: FindingSink, w: Record<string, unknown>, path: string, ctx: StepContext, stepId: string): void {
  sink.closed(w, ["cases", "default", "maxVisits"], path);
  sink.integer(w.maxVisits, 1, 100, "decision.invalid_max_visits", `${path}.maxVisits`);
  const target = (value: unknown, at: string) => {
    if (typeof value !== "string" || !ctx.scope.stepIds.has(value)) {
      sink.error("decision.unknown_target", at, `${at} names ${JSON.stringify(value)}, which is not a step`);
    } else if (ctx.scope.upstream.has(value)) {
      // A loop back to a step upstream: bounded, or refused.
      if (w.maxVisits === undefined)
        sink.error("decision.loop_without_max_visits", at, `${at} loops back to "${value}"; a loop needs with.maxVisits`);
    } else if (!(ctx.needsOf.get(value) ?? []).includes(stepId)) {
      sink.error("decision.target_not_dependent", at, `step "${value}" must need "${stepId}" to be chosen by it`);
    }
  };
  const cases = w.cases;
  if (!Array.isArray(cases) || cases.length === 0) sink.error("decision.invalid_cases", `${path}.cases`);
  else {
    cases.forEach((c, i) => {
      const at = childPath(`${path}.cases`, i);
      const entry = sink.object(c, at);
      if (!entry) return;
      sink.closed(entry, ["when", "step"], at);
      const when = entry.when;
      const parsed = typeof when === "string" ? parseTemplate(when) : null;
      if (!(parsed?.ok === true && parsed.parts.length === 1 && parsed.parts[0]?.kind === "expr"))
        sink.error("decision.invalid_when", `${at}.when`);
      else checkTemplates(sink, when, `${at}.when`, ctx.scope);
      target(entry.step, `${at}.step`);
    });
  }
  if (w.default === undefined) sink.error("decision.missing_default", `${path}.default`);
  else target(w.default, `${path}.default`);
}
