/** A run's relations in its summary: its parent and children (workflow.run), and its place in a flow-control queue. */
import { h } from "./dom.js";

/** A link to another run's page (a parent or a child: workflow.run). */
const runLink = (runId, id) => h("a", { href: `/runs/${encodeURIComponent(runId)}`, ...(id ? { id } : {}) }, runId);

/** The run's parent (a workflow.run step started it) and its children, each linking to its page. */
export function familyItems(view, item) {
  const parent = view.state.request?.parent;
  const children = view.state.children ?? [];
  return [
    parent ? item("Parent", runLink(parent.runId, "parent-link"), ` (step ${parent.stepPath})`) : null,
    children.length > 0
      ? item(
          "Children",
          h(
            "ul",
            { id: "children" },
            children.map((c) =>
              h(
                "li",
                { "data-child": c.childRunId },
                runLink(c.childRunId),
                ` ${c.workflowId} `,
                h("span", { class: `badge status-${c.ended?.status ?? "running"}` }, c.ended?.status ?? "running"),
                ` step ${c.stepPath}`,
              ),
            ),
          ),
        )
      : null,
  ];
}

/** A queued run's key (from the fold) and place (from the run as the API last showed it). */
export function queueLabel(view, run) {
  const queued = view.state.flow?.queued;
  if (!queued || (view.waitReason !== "concurrency" && view.waitReason !== "throttle")) return null;
  const place = run?.queue && run.queue.key === queued.key ? run.queue.position : queued.position;
  const where = queued.scope === "tenant" ? "tenant quota" : `key ${queued.key}`;
  return h("span", { id: "queue-place", "data-key": queued.key }, ` (${where}, position ${place ?? "?"})`);
}
