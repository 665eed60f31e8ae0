import { progressOf } from "../../engine/run-state.ts";
import { isEndedStatus } from "../../ports/run-status.ts";
import { postJson } from "./api.js";
import { h, replace } from "./dom.js";

// The run page's actions: cancel, pause, resume, and approve or deny a held tool call. Each asks
// for confirmation first and is shown only when the page's token has the scope its route needs
// (body[data-scopes], written by the server); the API checks the scope again. A refused action
// shows the API's error; a taken one shows up through the event stream like any change.

/** The scopes of the page's token (`runs:write`, `approve`, …). */
function scopes() {
  return new Set((document.body.dataset.scopes ?? "").split(" ").filter(Boolean));
}

/** The actions that apply to the run now, as [id, label, question, path, body]. */
function actionsOf(view, runId) {
  const allowed = scopes();
  const run = `/v1/runs/${encodeURIComponent(runId)}`;
  const out = [];
  if (isEndedStatus(view.status)) return out;
  if (allowed.has("runs:write")) {
    out.push(["cancel", "Cancel run", "Cancel this run? It ends now and cannot be resumed.", `${run}/cancel`, {}]);
    if (view.status === "paused")
      out.push(["resume", "Resume run", "Resume this run? It goes on from where it stopped.", `${run}/resume`, {}]);
    else out.push(["pause", "Pause run", "Pause this run? No new step or model call starts until it is resumed.", `${run}/pause`, {}]);
  }
  if (allowed.has("approve"))
    for (const a of view.state.approvals.values()) {
      if (a.decision || a.expiresAt <= Date.now()) continue;
      const path = `${run}/approvals/${encodeURIComponent(a.approvalId)}`;
      const what = `${a.tool} (${a.stepPath}) with ${JSON.stringify(a.args)}`;
      out.push([`approve-${a.approvalId}`, `Approve ${a.tool}`, `Approve ${what}?`, path, { decision: "approve", argsHash: a.argsHash }]);
      out.push([`deny-${a.approvalId}`, `Deny ${a.tool}`, `Deny ${what}?`, path, { decision: "deny", argsHash: a.argsHash }]);
    }
  return out;
}

/** Draws the actions section; redrawn only when the set of actions changes (so a message stays put). */
export function renderActions(section, body, view, runId, page) {
  const actions = actionsOf(view, runId);
  const key = JSON.stringify(actions.map(([id]) => id));
  if (key === page.actionsKey) return;
  page.actionsKey = key;
  section.hidden = actions.length === 0;
  const message = h("p", { id: "action-message", role: "status" });
  const act = async (label, question, path, payload) => {
    if (!window.confirm(question)) return;
    try {
      await postJson(path, payload);
      message.textContent = `${label}: done.`;
    } catch (error) {
      message.textContent = `${label} refused: ${error.message}`;
    }
  };
  replace(
    body,
    h(
      "div",
      { class: "actions" },
      actions.map(([id, label, question, path, payload]) =>
        h("button", { type: "button", id: `action-${id}`, onclick: () => act(label, question, path, payload) }, label),
      ),
    ),
    message,
  );
}

/** The summary's Tags and Progress items (docs/runs.md, "Tags", "Progress"), from the fold. */
export function tagsAndProgress(view, item) {
  const tags = view.state.request?.tags;
  const { stepsTotal, stepsEnded } = progressOf(view.state);
  return [
    tags
      ? item(
          "Tags",
          h(
            "span",
            { id: "run-tags" },
            Object.entries(tags)
              .map(([k, v]) => `${k}=${v}`)
              .join(", "),
          ),
        )
      : null,
    stepsTotal !== null ? item("Progress", h("span", { id: "run-progress" }, `${stepsEnded} of ${stepsTotal} steps`)) : null,
  ];
}
