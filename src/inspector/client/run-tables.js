import { redactForDisplay } from "../redact.ts";
import { h, replace } from "./dom.js";
import { fmtDuration, fmtTime } from "./format.js";

/** The run page's cycle and occurrence tables (a replanned run's cycles, a section's occurrences). */
export function renderCycles(section, body, view) {
  section.hidden = view.cycles.length === 0;
  if (section.hidden) return;
  const rows = view.cycles.map((c) =>
    h(
      "tr",
      { "data-cycle": String(c.cycleNumber) },
      h("td", {}, String(c.cycleNumber)),
      h("td", {}, h("span", { class: `badge status-${c.status}` }, c.status)),
      h("td", {}, c.decision),
      h("td", {}, fmtTime(c.endedAt)),
      h(
        "td",
        {},
        c.summary ?? "—",
        // A failed cycle's cause, beside supervise's summary (the next planner was told both).
        c.failure
          ? h("div", { class: "cause" }, h("code", {}, c.failure.causeCode), c.failure.stepId ? ` at ${c.failure.stepId}` : "")
          : null,
      ),
    ),
  );
  const head = h(
    "tr",
    {},
    ["Cycle", "Status", "Decision", "Ended", "Summary"].map((x) => h("th", { scope: "col" }, x)),
  );
  replace(body, h("div", { class: "table-scroll" }, h("table", {}, h("thead", {}, head), h("tbody", {}, rows))));
}

export function renderOccurrences(section, body, view) {
  section.hidden = view.occurrences.length === 0;
  if (section.hidden) return;
  replace(
    body,
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
            ["Occurrence", "Status", "Trigger", "Queued", "Started", "Took", "Output or cause"].map((x) => h("th", { scope: "col" }, x)),
          ),
        ),
        h(
          "tbody",
          {},
          view.occurrences.map((o) =>
            h(
              "tr",
              { "data-occurrence": o.id },
              h("td", {}, o.id),
              h("td", {}, h("span", { class: `badge status-${o.status}` }, o.status), o.rearmed ? " (the section went on)" : null),
              h("td", {}, o.trigger),
              h("td", {}, fmtTime(o.queuedAt)),
              h("td", {}, fmtTime(o.startedAt)),
              h("td", {}, o.startedAt !== null && o.endedAt !== null ? fmtDuration(o.endedAt - o.startedAt) : "—"),
              h(
                "td",
                {},
                o.failure
                  ? `${o.failure.causeCode}: ${o.failure.message}`
                  : o.output === undefined
                    ? "—"
                    : h("code", {}, JSON.stringify(redactForDisplay(o.output, { maxString: 200 }))),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}
