import { describe, expect, it } from "vitest";
import { LAYOUT, layoutDag } from "../../src/inspector/layout.ts";

const step = (id: string, needs: string[] = [], fanOut = false) => ({ id, kind: "ai.generate", needs, fanOut });

describe("layoutDag", () => {
  it("puts each step one layer right of the deepest step it needs", () => {
    const layout = layoutDag([
      step("fetch"),
      step("summarize", ["fetch"]),
      step("classify", ["fetch"]),
      step("report", ["summarize", "classify", "fetch"]),
    ]);
    expect(layout.layers).toEqual([["fetch"], ["summarize", "classify"], ["report"]]);
    const x = Object.fromEntries(layout.nodes.map((n) => [n.id, n.x]));
    expect(x.fetch).toBe(LAYOUT.padding);
    expect(x.summarize).toBe(x.classify);
    expect(x.report).toBe(LAYOUT.padding + 2 * (LAYOUT.nodeWidth + LAYOUT.gapX));
    expect(layout.width).toBe(2 * LAYOUT.padding + 3 * LAYOUT.nodeWidth + 2 * LAYOUT.gapX);
  });

  it("draws one edge per need, from the right side of the need to the left side of the step", () => {
    const layout = layoutDag([step("a"), step("b", ["a", "a"])]);
    expect(layout.edges.map((e) => [e.from, e.to])).toEqual([["a", "b"]]);
    const [a, b] = layout.nodes;
    const path = layout.edges[0]?.path ?? "";
    expect(path.startsWith(`M ${(a?.x ?? 0) + LAYOUT.nodeWidth} ${(a?.y ?? 0) + LAYOUT.nodeHeight / 2} C`)).toBe(true);
    expect(path.endsWith(`${b?.x} ${(b?.y ?? 0) + LAYOUT.nodeHeight / 2}`)).toBe(true);
  });

  it("orders a layer by the position of what it needs, so parallel chains do not cross", () => {
    const layout = layoutDag([step("top"), step("bottom"), step("after-bottom", ["bottom"]), step("after-top", ["top"])]);
    expect(layout.layers[1]).toEqual(["after-top", "after-bottom"]);
    const y = Object.fromEntries(layout.nodes.map((n) => [n.id, n.y]));
    expect(y["after-top"]).toBe(y.top);
    expect(y["after-bottom"]).toBe(y.bottom);
  });

  it("centres shorter layers and makes fan-out groups taller, without overlaps", () => {
    const layout = layoutDag([step("a"), step("b"), step("c"), step("fan", ["a"], true)]);
    const fan = layout.nodes.find((n) => n.id === "fan");
    expect(fan?.height).toBe(LAYOUT.nodeHeight + LAYOUT.fanOutExtra);
    expect(fan?.fanOut).toBe(true);
    const column = 3 * LAYOUT.nodeHeight + 2 * LAYOUT.gapY;
    expect(layout.height).toBe(2 * LAYOUT.padding + column);
    expect(fan?.y).toBe(LAYOUT.padding + (column - (LAYOUT.nodeHeight + LAYOUT.fanOutExtra)) / 2);
    const firstLayer = layout.nodes.filter((n) => n.layer === 0).sort((p, q) => p.y - q.y);
    for (let i = 1; i < firstLayer.length; i++) {
      const prev = firstLayer[i - 1];
      expect(firstLayer[i]?.y).toBeGreaterThanOrEqual((prev?.y ?? 0) + (prev?.height ?? 0) + LAYOUT.gapY);
    }
  });

  it("ignores needs naming no step, breaks a cycle instead of looping, and lays out nothing as an empty drawing", () => {
    expect(layoutDag([step("a", ["ghost"])]).layers).toEqual([["a"]]);
    const cyclic = layoutDag([step("a", ["b"]), step("b", ["a"])]);
    expect(cyclic.nodes.map((n) => n.id).sort()).toEqual(["a", "b"]);
    expect(layoutDag([])).toMatchObject({ nodes: [], edges: [], layers: [], width: 2 * LAYOUT.padding, height: 2 * LAYOUT.padding });
  });
});
