import { renderValue } from "../../lwir/evaluate-template.ts";
import { durationOf } from "../timeline.ts";
import { h, replace } from "./dom.js";
import { fmtCost, fmtDuration, fmtJson, fmtTime } from "./format.js";

/**
 * The selected step's panel: its definition, output or error, attempts, branches, sessions and calls.
 * `scope` (the run's input and the outputs of its steps) resolves the step's templates once it has started.
 */
export function renderDetails(body, stepId, lwirStep, step, runStartedAt, scope) {
  if (!stepId) return replace(body, h("p", {}, "No step selected."));
  const status = step?.status ?? "pending";
  const offset = (at) => (typeof at === "number" && typeof runStartedAt === "number" ? `+${fmtDuration(at - runStartedAt)}` : fmtTime(at));
  const input = lwirStep ? inputOf(lwirStep) : undefined;
  replace(
    body,
    h("h3", { id: "details-step" }, stepId, " ", h("span", { class: `badge status-${status}`, "data-testid": "details-status" }, status)),
    lwirStep?.description ? h("p", {}, lwirStep.description) : null,
    h(
      "dl",
      { class: "kv" },
      h("dt", {}, "Kind"),
      h("dd", {}, lwirStep?.uses ?? "—"),
      h("dt", {}, "Needs"),
      h("dd", {}, lwirStep?.needs?.length ? lwirStep.needs.join(", ") : "nothing"),
      lwirStep?.forEach ? [h("dt", {}, "Fan-out over"), h("dd", {}, h("code", {}, lwirStep.forEach.items))] : null,
      step && step.visits > 1 ? [h("dt", {}, "Visits"), h("dd", {}, String(step.visits))] : null,
    ),
    h("h4", {}, "Input"),
    h("pre", { "data-testid": "details-input" }, fmtJson(input)),
    resolvedInput(lwirStep, step, input, scope),
    step?.error
      ? [h("h4", {}, "Error"), h("p", { class: "cause" }, h("code", {}, step.error.code ?? step.error.name), " ", step.error.message)]
      : null,
    step?.skippedReason ? [h("h4", {}, "Skipped"), h("p", {}, step.skippedReason)] : null,
    h("h4", {}, "Output"),
    h("pre", { "data-testid": "details-output" }, step?.output === undefined ? "— (no output yet)" : fmtJson(step.output)),
    ...stepTables(step, offset),
  );
  return body;
}

/** The step's tables: attempts, approvals, branches, sessions, model calls, and its tool calls (opened one by one). */
function stepTables(step, offset) {
  return [
    section("Attempts", step?.attempts ?? [], ["Path", "Attempt", "Started", "Took", "Outcome", "Error"], (a) => [
      a.path,
      String(a.attempt),
      offset(a.startedAt),
      fmtDuration(durationOf(a)),
      a.outcome,
      a.error ? a.error.message : "",
    ]),
    section("Approvals", step?.approvals ?? [], ["Tool", "Requested", "Decision", "Reason", "Waited"], (x) => [
      x.tool,
      offset(x.requestedAt),
      x.decision ?? "waiting",
      x.reason ?? "",
      x.decidedAt === null ? "—" : fmtDuration(x.decidedAt - x.requestedAt),
    ]),
    step?.branches.length
      ? section("Branches", step.branches, ["Branch", "Status"], (b) => [b.key, h("span", { class: `badge status-${b.status}` }, b.status)])
      : null,
    section("Sessions", step?.sessions ?? [], ["Role", "Path", "Took", "Status"], (x) => [
      x.role,
      x.stepPath ?? "",
      fmtDuration(durationOf(x)),
      x.failure ? `${x.status}: ${x.failure.causeCode}` : x.status,
    ]),
    section(
      "Model calls",
      step?.modelCalls ?? [],
      // Seven columns, not nine: the panel is a third of the page, and Cost, Took and Status must fit.
      ["Slot", "Model", "Turn", "Tokens (in / out)", "Cost", "Took", "Status"],
      (m) => [
        m.modelSlotId,
        `${m.providerId}/${m.modelId}${m.offline ? " (offline)" : ""}`,
        String(m.turn),
        m.usage ? `${m.usage.inputTokens} / ${m.usage.outputTokens}` : "—",
        fmtCost(m.usage),
        fmtDuration(durationOf(m)),
        m.error ? `failed: ${m.error.message}` : m.status,
      ],
    ),
    step?.toolCalls.length
      ? [
          h("h4", {}, "Tool calls"),
          step.toolCalls.map((t) =>
            h(
              "details",
              { class: "tool-call" },
              h("summary", {}, `${t.tool} · ${t.status} · ${fmtDuration(durationOf(t))}`),
              h("p", {}, "Arguments"),
              h("pre", {}, fmtJson(t.args)),
              t.error ? h("p", { class: "cause" }, t.error.message) : [h("p", {}, "Result"), h("pre", {}, fmtJson(t.result))],
            ),
          ),
        ]
      : null,
  ];
}

/**
 * What the step was given, its templates resolved against the run's input and the outputs it read
 * (an ai.generate's prompt as sent, a tool.call's arguments): the engine renders them the same way,
 * from the same values, so this is what the call received. Shown once the step has started (its
 * inputs are final then), and not for a fan-out, whose branches each read their own item.
 */
function resolvedInput(lwirStep, step, input, scope) {
  if (!lwirStep || !step || !scope || lwirStep.forEach || step.status === "pending" || step.status === "scheduled") return null;
  const given = JSON.stringify(input);
  if (!given.includes("{{")) return null;
  let resolved;
  try {
    resolved = renderValue(input, scope);
  } catch {
    return null;
  }
  return [h("h4", {}, "Input, resolved"), h("pre", { "data-testid": "details-input-resolved" }, fmtJson(resolved))];
}

/** What a step is given, as its LWIR says (templates unresolved): `with`, minus code bodies. */
function inputOf(step) {
  const given = { ...step.with };
  if (step.uses === "code.run" && given.files) {
    given.files = Object.fromEntries(
      Object.entries(given.files).map(([name, f]) => [name, { sha256: f.sha256, bytes: f.content?.length ?? 0 }]),
    );
  }
  return given;
}

function section(title, rows, headers, cells) {
  if (rows.length === 0) return null;
  return [
    h("h4", {}, title),
    h(
      "div",
      { class: "table-scroll" },
      h(
        "table",
        {},
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            headers.map((x) => h("th", { scope: "col" }, x)),
          ),
        ),
        h(
          "tbody",
          {},
          rows.map((row) =>
            h(
              "tr",
              {},
              cells(row).map((c) => h("td", {}, c)),
            ),
          ),
        ),
      ),
    ),
  ];
}
