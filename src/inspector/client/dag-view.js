import { LAYOUT, layoutDag } from "../layout.ts";
import { replace, s } from "./dom.js";

const MAX_CHIPS = 24;

/** Steps of an LWIR in the layout's terms. */
export function layoutOfLwir(lwir) {
  const steps = Array.isArray(lwir?.steps) ? lwir.steps : [];
  return layoutDag(
    steps.map((step) => ({
      id: String(step.id),
      kind: String(step.uses),
      needs: Array.isArray(step.needs) ? step.needs.map(String) : [],
      fanOut: step.forEach !== undefined,
    })),
  );
}

/**
 * Draws the DAG into `svg` once per version; `update` then recolours nodes in place, so focus and
 * selection survive live updates.
 */
export function drawDag(svg, layout, onSelect) {
  replace(svg);
  svg.setAttribute("viewBox", `0 0 ${layout.width} ${layout.height}`);
  svg.setAttribute("width", String(layout.width));
  svg.setAttribute("height", String(layout.height));
  const defs = s(
    "defs",
    {},
    s(
      "marker",
      { id: "arrow", viewBox: "0 0 10 10", refX: "10", refY: "5", markerWidth: "8", markerHeight: "8", orient: "auto-start-reverse" },
      s("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: "#4b5563" }),
    ),
  );
  const edges = s(
    "g",
    { class: "edges" },
    layout.edges.map((e) => s("path", { class: "edge", d: e.path, "data-from": e.from, "data-to": e.to, "marker-end": "url(#arrow)" })),
  );
  const nodes = s("g", { class: "nodes" });
  // In reading order (layer by layer, top to bottom), which is also the Tab order.
  for (const node of [...layout.nodes].sort((a, b) => a.layer - b.layer || a.order - b.order)) {
    const g = s("g", {
      class: "node status-pending",
      "data-step": node.id,
      "data-status": "pending",
      "data-kind": node.kind,
      tabindex: "0",
      role: "button",
      transform: `translate(${node.x} ${node.y})`,
      "aria-label": `${node.id}, ${node.kind}, pending`,
    });
    if (node.fanOut) {
      // Two offset cards behind the box: a group of branches.
      g.append(s("rect", { class: "stack", x: 8, y: -8, width: node.width, height: node.height, rx: 6 }));
      g.append(s("rect", { class: "stack", x: 4, y: -4, width: node.width, height: node.height, rx: 6 }));
    }
    g.append(
      s("rect", { class: "box", width: node.width, height: node.height, rx: 6 }),
      s("text", { class: "label", x: 10, y: 20 }, clip(node.id, 22)),
      s("text", { class: "kind", x: 10, y: 36 }, node.fanOut ? `${node.kind} · fan-out` : node.kind),
      s("text", { class: "state", x: 10, y: 51 }, "pending"),
    );
    if (node.fanOut) g.append(s("g", { class: "chips", transform: `translate(10 ${LAYOUT.nodeHeight + 4})` }));
    g.append(s("title", {}, `${node.id} (${node.kind})`));
    const select = () => onSelect(node.id);
    g.addEventListener("click", select);
    g.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        select();
      }
    });
    nodes.append(g);
  }
  svg.append(defs, edges, nodes);
}

/** Recolours every node from the run view, and redraws fan-out branch chips. */
export function updateDag(svg, view, selected) {
  for (const g of svg.querySelectorAll("g.node")) {
    const id = g.getAttribute("data-step");
    const step = view.steps[id];
    const status = step?.status ?? "pending";
    const visits = step && step.visits > 1 ? ` · visit ${step.visits}` : "";
    const attempts = step?.attempts.some((a) => a.attempt > 1 && !a.path.includes("[")) ? " · retried" : "";
    g.setAttribute("class", `node status-${status}${id === selected ? " selected" : ""}`);
    g.setAttribute("data-status", status);
    g.setAttribute("aria-label", `${id}, ${g.getAttribute("data-kind")}, ${status}`);
    g.setAttribute("aria-pressed", id === selected ? "true" : "false");
    const state = g.querySelector("text.state");
    if (state) state.textContent = `${status}${visits}${attempts}`;
    const chips = g.querySelector("g.chips");
    if (chips && step) drawChips(chips, step.branches);
  }
}

function drawChips(group, branches) {
  const done = branches.filter((b) => b.status === "succeeded").length;
  const shown = branches.slice(0, MAX_CHIPS);
  const width = Math.max(4, Math.min(12, Math.floor((LAYOUT.nodeWidth - 80) / Math.max(1, shown.length)) - 2));
  replace(
    group,
    shown.map((b, i) =>
      s("rect", {
        class: `chip status-${b.status}`,
        x: i * (width + 2),
        y: 0,
        width,
        height: 10,
        rx: 2,
        "data-branch": b.key,
        "data-status": b.status,
      }),
    ),
    s("text", { class: "branches", x: LAYOUT.nodeWidth - 20, y: 9, "text-anchor": "end" }, `${done}/${branches.length}`),
  );
}

function clip(text, max) {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
