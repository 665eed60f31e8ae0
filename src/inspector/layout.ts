/**
 * Left-to-right layered layout of an LWIR DAG for the inspector's SVG: a step's layer is one more
 * than the deepest step it needs; within a layer steps are ordered by the mean position of what
 * they need (one barycentre pass, declaration order breaking ties), which keeps most edges short
 * and uncrossed for the small DAGs planners write. Pure: no DOM, so it runs in the Worker's tests
 * and in the browser bundle alike.
 */

/** What the layout needs to know of a step. */
export type LayoutStep = {
  readonly id: string;
  readonly kind: string;
  readonly needs: readonly string[];
  /** A fan-out step: drawn as a group whose branches appear inside it. */
  readonly fanOut?: boolean;
};

export type LayoutNode = {
  readonly id: string;
  readonly kind: string;
  readonly layer: number;
  /** Position within the layer, top first. */
  readonly order: number;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  readonly fanOut: boolean;
};

export type LayoutEdge = {
  readonly from: string;
  readonly to: string;
  /** An SVG path from the right edge of `from` to the left edge of `to`. */
  readonly path: string;
};

export type DagLayout = {
  readonly width: number;
  readonly height: number;
  readonly layers: readonly (readonly string[])[];
  readonly nodes: readonly LayoutNode[];
  readonly edges: readonly LayoutEdge[];
};

/** Sizes in SVG user units. */
export const LAYOUT = {
  nodeWidth: 176,
  nodeHeight: 56,
  /** Extra height of a fan-out group, where its branch chips go. */
  fanOutExtra: 28,
  gapX: 64,
  gapY: 24,
  padding: 16,
} as const;

/**
 * Lays out steps left to right. Needs naming no step are ignored, and a cycle (which a valid LWIR
 * cannot have) is broken where it is found, so the page can still draw what it was given.
 *
 * @example
 * const { nodes, edges } = layoutDag([{ id: "a", kind: "ai.generate", needs: [] }, { id: "b", kind: "code.run", needs: ["a"] }]);
 * // nodes: a in layer 0, b in layer 1; edges: one path a → b
 */
export function layoutDag(steps: readonly LayoutStep[]): DagLayout {
  const byId = new Map(steps.map((s) => [s.id, s]));
  const layers = layersOf(steps, byId);
  const layerCount = layers.length;
  orderLayers(layers, steps, byId);

  const heightOf = (id: string) => LAYOUT.nodeHeight + (byId.get(id)?.fanOut ? LAYOUT.fanOutExtra : 0);
  const columnHeight = (layer: readonly string[]) =>
    layer.reduce((sum, id) => sum + heightOf(id), 0) + Math.max(0, layer.length - 1) * LAYOUT.gapY;
  const tallest = Math.max(0, ...layers.map(columnHeight));

  const nodes: LayoutNode[] = [];
  const placed = new Map<string, LayoutNode>();
  layers.forEach((layer, layerIndex) => {
    // Shorter columns are centred against the tallest one.
    let y = LAYOUT.padding + (tallest - columnHeight(layer)) / 2;
    layer.forEach((id, order) => {
      const step = byId.get(id) as LayoutStep;
      const node: LayoutNode = {
        id,
        kind: step.kind,
        layer: layerIndex,
        order,
        x: LAYOUT.padding + layerIndex * (LAYOUT.nodeWidth + LAYOUT.gapX),
        y,
        width: LAYOUT.nodeWidth,
        height: heightOf(id),
        fanOut: step.fanOut === true,
      };
      y += node.height + LAYOUT.gapY;
      placed.set(id, node);
    });
  });
  for (const step of steps) nodes.push(placed.get(step.id) as LayoutNode);

  const edges: LayoutEdge[] = [];
  for (const step of steps) {
    const to = placed.get(step.id) as LayoutNode;
    for (const need of new Set(step.needs)) {
      const from = placed.get(need);
      if (!from || need === step.id) continue;
      edges.push({ from: need, to: step.id, path: edgePath(from, to) });
    }
  }

  return {
    width: layerCount === 0 ? 2 * LAYOUT.padding : 2 * LAYOUT.padding + layerCount * LAYOUT.nodeWidth + (layerCount - 1) * LAYOUT.gapX,
    height: 2 * LAYOUT.padding + tallest,
    layers,
    nodes,
    edges,
  };
}

/** Each step's layer: one past the deepest step it needs (a cycle is broken where it is found). */
function layersOf(steps: readonly LayoutStep[], byId: ReadonlyMap<string, LayoutStep>): string[][] {
  const layerOf = new Map<string, number>();
  const visiting = new Set<string>();
  const depth = (id: string): number => {
    const known = layerOf.get(id);
    if (known !== undefined) return known;
    if (visiting.has(id)) return 0; // a cycle: break it here
    visiting.add(id);
    const step = byId.get(id);
    const needs = (step?.needs ?? []).filter((n) => byId.has(n) && n !== id);
    const layer = needs.length === 0 ? 0 : 1 + Math.max(...needs.map(depth));
    visiting.delete(id);
    layerOf.set(id, layer);
    return layer;
  };
  for (const step of steps) depth(step.id);

  const layerCount = steps.length === 0 ? 0 : 1 + Math.max(...steps.map((s) => layerOf.get(s.id) ?? 0));
  const layers: string[][] = Array.from({ length: layerCount }, () => []);
  for (const step of steps) layers[layerOf.get(step.id) ?? 0]?.push(step.id);
  return layers;
}

/** Barycentre ordering, in place: each layer sorted by the mean order of the steps it needs (declared order breaks ties). */
function orderLayers(layers: string[][], steps: readonly LayoutStep[], byId: ReadonlyMap<string, LayoutStep>): void {
  const orderOf = new Map<string, number>();
  const declared = new Map(steps.map((s, i) => [s.id, i]));
  for (const layer of layers) {
    const score = (id: string) => {
      const placed = (byId.get(id)?.needs ?? []).map((n) => orderOf.get(n)).filter((o): o is number => o !== undefined);
      return placed.length === 0 ? Number.POSITIVE_INFINITY : placed.reduce((a, b) => a + b, 0) / placed.length;
    };
    layer.sort((a, b) => {
      const d = score(a) - score(b);
      return Number.isNaN(d) || d === 0 ? (declared.get(a) ?? 0) - (declared.get(b) ?? 0) : d;
    });
    layer.forEach((id, i) => {
      orderOf.set(id, i);
    });
  }
}

/** A horizontal S-curve from the middle of `from`'s right side to the middle of `to`'s left side. */
function edgePath(from: LayoutNode, to: LayoutNode): string {
  const x1 = from.x + from.width;
  const y1 = from.y + from.height / 2;
  const x2 = to.x;
  const y2 = to.y + to.height / 2;
  const bend = Math.max(24, (x2 - x1) / 2);
  return `M ${x1} ${y1} C ${x1 + bend} ${y1}, ${x2 - bend} ${y2}, ${x2} ${y2}`;
}
