// The run page's Delete button (docs/inspector.md, "Deleting a run"): shown only when the page's
// token has the runs:delete scope (the server marks the page), and asks before it acts: a deletion
// purges the run's log, blobs and rows for good. A run that has not ended is cancelled first.
import { isEndedStatus } from "../../ports/run-status.ts";
import { h, replace } from "./dom.js";

/** Mounts the button in `#run-actions` when the page allows it. */
export function mountDeleteRun(runId) {
  const box = document.getElementById("run-actions");
  if (!box || document.body.dataset.canDelete !== "true") return;
  const button = h(
    "button",
    { type: "button", id: "delete-run", class: "danger", onclick: () => confirmDelete(box, runId, button) },
    "Delete run…",
  );
  replace(box, button);
}

function confirmDelete(box, runId, button) {
  const status = document.getElementById("run-status")?.dataset.status ?? "";
  const live = status !== "" && !isEndedStatus(status);
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const yes = h("button", { type: "button", id: "delete-run-confirm", class: "danger" }, live ? "Cancel and delete" : "Delete");
  const no = h("button", { type: "button", id: "delete-run-keep" }, "Keep it");
  const dialog = h(
    "div",
    { role: "alertdialog", "aria-labelledby": "delete-run-title", id: "delete-run-dialog", class: "confirm" },
    h("p", { id: "delete-run-title" }, `Delete run ${runId} and all its data (log, input, outputs, child runs)? This cannot be undone.`),
    live ? h("p", {}, "The run has not ended: it will be cancelled first.") : null,
    yes,
    no,
    error,
  );
  no.addEventListener("click", () => replace(box, button));
  yes.addEventListener("click", async () => {
    yes.disabled = true;
    const res = await fetch(`/v1/runs/${encodeURIComponent(runId)}?cancel=true`, {
      method: "DELETE",
      credentials: "same-origin",
      headers: { accept: "application/json" },
    }).catch((e) => ({ ok: false, json: async () => ({ error: { message: e.message } }) }));
    if (res.ok || res.status === 410) {
      // The page now answers 410 and says the run was deleted.
      location.reload();
      return;
    }
    const body = await res.json().catch(() => null);
    error.textContent = `Could not delete the run: ${body?.error?.message ?? `HTTP ${res.status}`}`;
    error.hidden = false;
    yes.disabled = false;
  });
  replace(box, dialog);
  no.focus();
}
