/**
 * The compare page (`/runs/{a}/compare/{b}`): the two runs' DAGs side by side, each step marked
 * reused, re-run or changed (its output differs), and a table of both sides from
 * `GET /v1/runs/{a}/compare/{b}`.
 */
import { getJson } from "./api.js";
import { drawDag, layoutOfLwir } from "./dag-view.js";
import { h, replace } from "./dom.js";
import { fmtDuration, fmtTokens } from "./format.js";

const compact = (value) => (value === undefined ? "—" : JSON.stringify(value));

export async function comparePage(a, b) {
  const $ = (id) => document.getElementById(id);
  let comparison;
  try {
    comparison = await getJson(`/v1/runs/${encodeURIComponent(a)}/compare/${encodeURIComponent(b)}`);
  } catch (error) {
    replace($("compare-state"), h("span", { class: "error", role: "alert" }, `Could not compare: ${error.message}`));
    return;
  }
  replace($("compare-state"), `${a} (${comparison.a.status}) and ${b} (${comparison.b.status})`);
  await Promise.all([drawSide($("dag-a"), comparison.a, comparison, "a"), drawSide($("dag-b"), comparison.b, comparison, "b")]);
  replace($("compare-body"), table(comparison));
}

async function drawSide(svg, run, comparison, side) {
  if (!run.versionId) return;
  const body = await getJson(`/v1/versions/${encodeURIComponent(run.versionId)}`);
  drawDag(svg, layoutOfLwir(body.version.lwir), () => {});
  for (const step of comparison.steps) {
    const node = svg.querySelector(`g.node[data-step="${CSS.escape(step.stepId)}"]`);
    if (!node) continue;
    const mine = step[side];
    const mark = mine.reused ? "reused" : step.changed ? "changed" : mine.status === "succeeded" ? "same" : mine.status;
    node.setAttribute("data-compare", mark);
    node.setAttribute("data-status", mine.status === "succeeded" ? "succeeded" : mine.status);
    node.classList.add(`compare-${mark}`);
    const label = mine.reused ? "reused" : step.changed ? `${mine.status} · changed` : mine.status;
    const state = node.querySelector("text.state");
    if (state) state.textContent = label;
    node.setAttribute("aria-label", `${step.stepId}, ${step.uses}, ${label}`);
  }
}

function table(c) {
  const side = (s) =>
    `${s.reused ? "reused" : s.status} · ${s.durationMs === null ? "—" : fmtDuration(s.durationMs)} · ${fmtTokens(s.usage)} tokens`;
  return h(
    "table",
    { id: "compare-table" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        ["Step", "A", "B", "Output"].map((x) => h("th", { scope: "col" }, x)),
      ),
    ),
    h(
      "tbody",
      {},
      c.steps.map((s) =>
        h(
          "tr",
          { "data-step": s.stepId, "data-changed": String(s.changed) },
          h("td", {}, s.stepId),
          h("td", {}, side(s.a)),
          h("td", {}, side(s.b)),
          h("td", {}, s.changed ? h("pre", {}, s.diff.map((d) => `${d.path}: ${compact(d.a)} → ${compact(d.b)}`).join("\n")) : "same"),
        ),
      ),
    ),
  );
}
