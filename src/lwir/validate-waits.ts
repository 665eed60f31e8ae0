/**
 * @module Structural checks of the wait kinds, `wait.sleep` and `wait.signal`: their `with` (from
 * the one contract, lwir-spec.ts) and the step fields a wait does not take. Whether each signal
 * name is declared by the workflow is the binding pass's (bind-signals.ts).
 */
import { childPath } from "../sdk/json-path.ts";
import { SIGNAL_NAME_PATTERN } from "../sdk/names.ts";
import type { FindingSink } from "./findings-sink.ts";
import { bounds, WAIT_SIGNAL_WITH, WAIT_SLEEP_WITH } from "./lwir-spec.ts";
import { checkTemplates, type TemplateScope } from "./validate-templates.ts";

/** Step fields that make no sense on a wait: its deadline is its own, it has nothing to retry or fan out. */
const NOT_ON_WAITS = ["retry", "timeoutMs", "forEach"] as const;

/** A wait step's fields besides `with`: no retry, no step timeout, no fan-out. */
export function checkWaitStepFields(sink: FindingSink, step: Record<string, unknown>, path: string, kind: string): void {
  for (const field of NOT_ON_WAITS) {
    if (step[field] === undefined) continue;
    const fix =
      field === "timeoutMs"
        ? kind === "wait.signal"
          ? "the wait's deadline is with.timeoutMs"
          : "the sleep's length is with.durationMs or with.until"
        : field === "retry"
          ? "a wait does not fail, so there is nothing to retry"
          : "fan out the steps before or after the wait instead";
    sink.error("wait.field_not_allowed", `${path}.${field}`, `${kind} takes no ${field}: remove it (${fix})`);
  }
}

/** `wait.sleep`: exactly one of `durationMs` (an integer up to 365 days) and `until` (a template). */
export function checkWaitSleep(sink: FindingSink, w: Record<string, unknown>, path: string, scope: TemplateScope): void {
  sink.closed(w, WAIT_SLEEP_WITH, path);
  const hasDuration = w.durationMs !== undefined;
  const hasUntil = w.until !== undefined;
  if (hasDuration === hasUntil)
    sink.error(
      "wait.invalid_sleep",
      path,
      `${path} needs exactly one of durationMs (ms to sleep, e.g. 60000) and until (a template giving an ISO-8601 instant, e.g. "{{ input.remindAt }}")`,
    );
  sink.integer(w.durationMs, ...bounds(WAIT_SLEEP_WITH, "durationMs"), "wait.invalid_duration", `${path}.durationMs`);
  if (hasUntil) {
    if (typeof w.until !== "string" || w.until.trim() === "")
      sink.error("wait.invalid_until", `${path}.until`, `${path}.until must be a template giving an ISO-8601 instant`);
    else {
      checkTemplates(sink, w.until, `${path}.until`, scope);
      const literal = w.until.includes("{{") ? null : Date.parse(w.until);
      if (literal !== null && Number.isNaN(literal))
        sink.error("wait.invalid_until", `${path}.until`, `${path}.until is ${JSON.stringify(w.until)}, which is no ISO-8601 instant`);
    }
  }
}

/** `wait.signal`: a non-empty list of distinct signal names and a required `timeoutMs` up to 365 days. */
export function checkWaitSignal(sink: FindingSink, w: Record<string, unknown>, path: string): void {
  sink.closed(w, WAIT_SIGNAL_WITH, path);
  const signals = w.signals;
  if (!Array.isArray(signals) || signals.length === 0)
    sink.error(
      "wait.invalid_signals",
      `${path}.signals`,
      `${path}.signals must be a non-empty list of signal names the workflow declares (workflowSnapshot.signals[].name)`,
    );
  else {
    const seen = new Set<string>();
    signals.forEach((name, i) => {
      const at = childPath(`${path}.signals`, i);
      if (typeof name !== "string" || !SIGNAL_NAME_PATTERN.test(name))
        sink.error("wait.invalid_signals", at, `${at} is ${JSON.stringify(name)}; a signal name matches ^[a-z][a-z0-9_.-]{0,63}$`);
      else if (seen.has(name)) sink.error("wait.invalid_signals", at, `${at} names "${name}" twice`);
      else seen.add(name);
    });
  }
  if (w.timeoutMs === undefined)
    sink.missing(
      `${path}.timeoutMs`,
      'ms to wait before the output is { "signal": null, "timedOut": true }, at most 31536000000 (365 days)',
    );
  sink.integer(w.timeoutMs, ...bounds(WAIT_SIGNAL_WITH, "timeoutMs"), "wait.invalid_timeout", `${path}.timeoutMs`);
}
