import { terminalSteps, upstreamSets } from "../lwir/graph.ts";
import type { LwirStep } from "../lwir/types.ts";
import type { DecisionOutput } from "./steps/decision.ts";

/**
 * Where one execution of a locked version stands inside a slice: which steps are done or skipped,
 * their outputs, and how often a loop has sent each step round. `executeVersion` drives it; this
 * only knows the graph.
 */
export class VersionProgress {
  readonly steps: readonly LwirStep[];
  readonly byId: ReadonlyMap<string, LwirStep>;
  readonly outputs: Record<string, unknown> = {};
  readonly done = new Set<string>();
  readonly skipped = new Set<string>();
  /** A loop revisits steps; visit k > 1 of a step has the path `<step>@k`. */
  readonly visits: Map<string, number>;
  private readonly loops: Map<string, Set<string>>;
  private readonly prefix: string;

  constructor(steps: readonly LwirStep[], cycle: number, scope = "") {
    this.steps = steps;
    this.byId = new Map(steps.map((s) => [s.id, s]));
    this.visits = new Map(steps.map((s) => [s.id, 1]));
    this.loops = loopBodies(steps);
    this.prefix = `${scope}c${cycle}/`;
  }

  /** The step's path in the log for its current visit. */
  pathOf(step: LwirStep): string {
    const visit = this.visits.get(step.id) ?? 1;
    const base = `${this.prefix}${step.id}`;
    return visit === 1 ? base : `${base}@${visit}`;
  }

  /** A finished step; a decision that chose a step upstream of it sends the loop round again. */
  complete(step: LwirStep, output: unknown): void {
    this.outputs[step.id] = output;
    this.done.add(step.id);
    if (step.uses !== "decision") return;
    const body = this.loops.get(`${step.id}->${(output as DecisionOutput).chosen}`);
    if (!body) return;
    for (const id of body) {
      this.visits.set(id, (this.visits.get(id) ?? 1) + 1);
      this.done.delete(id);
      this.skipped.delete(id);
    }
  }

  settled(id: string): boolean {
    return this.done.has(id) || this.skipped.has(id);
  }

  /** Not settled, and every step it needs is. */
  ready(step: LwirStep): boolean {
    return !this.settled(step.id) && step.needs.every((n) => this.settled(n));
  }

  allSettled(): boolean {
    return this.done.size + this.skipped.size >= this.steps.length;
  }

  /** The version's result: the terminal step's output, null when it was skipped. */
  terminalOutput(): unknown {
    const [terminal] = terminalSteps(this.steps);
    return this.skipped.has(terminal as string) ? null : this.outputs[terminal as string];
  }
}

/**
 * For each decision target upstream of its decision (a loop), the steps a choice of it runs again:
 * the target, the steps between it and the decision, and the decision itself. Keyed `<decision>-><target>`.
 */
function loopBodies(steps: readonly LwirStep[]): Map<string, Set<string>> {
  const upstream = upstreamSets(steps);
  const bodies = new Map<string, Set<string>>();
  for (const step of steps) {
    if (step.uses !== "decision") continue;
    const above = upstream.get(step.id) ?? new Set<string>();
    for (const target of [...step.with.cases.map((c) => c.step), step.with.default]) {
      if (!above.has(target)) continue;
      const body = new Set([target, step.id]);
      for (const s of steps) if (above.has(s.id) && (upstream.get(s.id) ?? new Set()).has(target)) body.add(s.id);
      bodies.set(`${step.id}->${target}`, body);
    }
  }
  return bodies;
}
