import { h, replace } from "./dom.js";
import { fmtJson } from "./format.js";

// Live model output (docs/observability.md, "Live model output"): the text of each model call in
// flight, as the run stream's `delta` messages bring it. Nothing here is journaled; a call leaves
// the panel when its answer (or failure) is logged, and the log's answer is what the details show.

/** The page's live calls: callId → { label, channels: Map<channel, text>, partial }. */
export function liveOutputState() {
  return new Map();
}

/** Applies one delta: `whole = whole.slice(0, offset) + text` (a resend of the text so far replaces it). */
export function applyDelta(calls, delta) {
  let call = calls.get(delta.callId);
  if (!call) {
    call = { delta, channels: new Map(), partial: undefined };
    calls.set(delta.callId, call);
  }
  const before = call.channels.get(delta.channel) ?? "";
  call.channels.set(delta.channel, before.slice(0, delta.offset) + delta.text);
  if (delta.partial !== undefined) call.partial = delta.partial;
}

/** The log answered (or failed) these calls, or the run ended: they are no longer live. */
export function settleCalls(calls, events) {
  for (const event of events) {
    const type = event.type;
    if (type === "harness.model.responded" || type === "harness.model.failed") calls.delete(event.payload?.callId);
    if (type === "RunCompleted" || type === "RunFailed" || type === "RunCancelled") calls.clear();
  }
}

/** Draws the panel: one block per live call, labelled by its step (or the planner) and call number. */
export function renderLiveOutput(section, body, calls) {
  section.hidden = calls.size === 0;
  if (section.hidden) return;
  replace(
    body,
    [...calls.values()].map(({ delta, channels, partial }) =>
      h(
        "div",
        { class: "live-call", "data-call-id": delta.callId, "data-step-path": delta.stepPath ?? "" },
        h(
          "h3",
          {},
          delta.stepPath ? `${delta.stepPath}` : delta.role,
          h("span", { class: "detail" }, ` call ${delta.call} (${delta.role})`),
        ),
        [...channels].map(([channel, text]) =>
          h("pre", { class: `live-text live-${channel}`, "data-channel": channel, "aria-live": "polite" }, text),
        ),
        partial !== undefined ? [h("h4", {}, "Partial object"), h("pre", { class: "live-partial" }, fmtJson(partial))] : null,
      ),
    ),
  );
}
