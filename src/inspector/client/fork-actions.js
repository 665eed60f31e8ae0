/**
 * The run page's restart and fork actions (docs/inspector.md, "Restart, fork and compare"): shown
 * for an ended run to a token with `runs:write` (the page's `data-scopes`), each behind a
 * confirmation; and, on a restart or fork, a link to compare it with its source.
 */
import { isEndedStatus } from "../../ports/run-status.ts";
import { postJson } from "./api.js";
import { h, replace } from "./dom.js";

const runHref = (runId) => `/runs/${encodeURIComponent(runId)}`;
export const compareHref = (a, b) => `/runs/${encodeURIComponent(a)}/compare/${encodeURIComponent(b)}`;

/** Whether the page's token may start runs (the server wrote its scopes on the body). */
function canWrite() {
  const scopes = (document.body.dataset.scopes ?? "").split(" ");
  return scopes.includes("runs:write") || scopes.includes("admin");
}

/** Draws the section once the run has ended and its version is loaded (not again: a form keeps what was typed). */
export function renderForkActions(section, page) {
  const run = page.run;
  const source = run?.forkOf?.runId ?? run?.restartOf?.runId;
  const status = page.view.status ?? run?.status;
  const ready = isEndedStatus(status) && page.lwirSteps.size > 0;
  const key = JSON.stringify([ready, source ?? null]);
  if (section.dataset.key === key) return;
  section.dataset.key = key;
  const parts = [];
  if (source) parts.push(h("p", {}, h("a", { id: "compare-link", href: compareHref(source, page.runId) }, `Compare with ${source}`)));
  if (ready && canWrite()) parts.push(restartForm(page), forkForm(page));
  section.hidden = parts.length === 0;
  replace(section.querySelector(".body") ?? section, parts);
}

function restartForm(page) {
  const steps = [...page.lwirSteps.keys()];
  const failed = steps.find((id) => page.view.steps[id]?.status === "failed");
  const select = h(
    "select",
    { id: "restart-step", name: "fromStep" },
    steps.map((id) => h("option", { value: id, ...(id === failed ? { selected: "" } : {}) }, id)),
  );
  const status = h("p", { role: "status", class: "hint" });
  const form = h(
    "form",
    { id: "restart-form" },
    h("label", { for: "restart-step" }, "Restart from step "),
    select,
    " ",
    h("button", { type: "submit" }, "Restart from step"),
    status,
  );
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const fromStep = select.value;
    if (
      !confirm(
        `Start a new run of this version from "${fromStep}"? The steps before it reuse their recorded results; it and every step after it run again.`,
      )
    )
      return;
    void start(status, `/v1/runs/${encodeURIComponent(page.runId)}/restart`, { fromStep });
  });
  return form;
}

function forkForm(page) {
  const generates = [...page.lwirSteps.values()].filter((s) => s.uses === "ai.generate");
  const select = h(
    "select",
    { id: "fork-step" },
    generates.map((s) => h("option", { value: s.id }, s.id)),
  );
  const prompt = h("textarea", { id: "fork-prompt", rows: "4", cols: "60" });
  const slot = h("input", { id: "fork-slot", placeholder: "model slot (optional)" });
  const model = h("input", { id: "fork-model", placeholder: "provider:model" });
  const fill = () => {
    prompt.value = page.lwirSteps.get(select.value)?.with?.prompt ?? "";
    slot.value = page.lwirSteps.get(select.value)?.with?.model ?? "";
  };
  select.addEventListener("change", fill);
  fill();
  const status = h("p", { role: "status", class: "hint" });
  const form = h(
    "form",
    { id: "fork-form" },
    h("p", {}, h("label", { for: "fork-step" }, "Fork with a change to step "), select),
    h("p", {}, h("label", { for: "fork-prompt" }, "Prompt"), h("br"), prompt),
    h("p", {}, h("label", { for: "fork-model" }, "Model for slot "), slot, " ", model),
    h("button", { type: "submit" }, "Fork with a model or prompt change"),
    status,
  );
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const step = page.lwirSteps.get(select.value);
    const body = {};
    if (step && prompt.value !== step.with?.prompt) body.steps = { [step.id]: { with: { prompt: prompt.value } } };
    if (model.value.trim() !== "" && slot.value.trim() !== "") body.models = { [slot.value.trim()]: model.value.trim() };
    if (!confirm("Start a fork of this run with these changes? Steps the change does not reach reuse their recorded results.")) return;
    void start(status, `/v1/runs/${encodeURIComponent(page.runId)}/fork`, body);
  });
  return form;
}

async function start(status, path, body) {
  replace(status, "Starting…");
  try {
    const answer = await postJson(path, body);
    location.assign(runHref(answer.run.runId));
  } catch (error) {
    replace(status, h("span", { class: "error", role: "alert" }, `${error.code ?? "error"}: ${error.message}`));
  }
}
