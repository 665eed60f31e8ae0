import { childPath } from "../sdk/json-path.ts";
import type { FindingSink } from "./findings-sink.ts";
import { parseTemplate, type TemplateExpr } from "./template.ts";

type Node = { readonly id: string; readonly path: string; readonly step: Record<string, unknown> };

/**
 * A step that joins two or more branches of a decision runs when any one of them ran, so the
 * others were skipped and their outputs are missing. Reading a branch's output there is refused
 * unless it goes through `default(…)`, which is how a join picks whichever ran. (A step that
 * depends on several branches is itself a join and always runs, so reading it is fine.)
 */
export function checkJoins(sink: FindingSink, nodes: readonly Node[], upstream: ReadonlyMap<string, ReadonlySet<string>>): void {
  const ids = new Set(nodes.map((n) => n.id));
  for (const decision of nodes) {
    const targets = decisionTargets(decision, ids).filter((t) => !(upstream.get(decision.id)?.has(t) ?? false));
    if (targets.length < 2) continue;
    for (const join of nodes) {
      const above = upstream.get(join.id) ?? new Set<string>();
      const branches = targets.filter((t) => t !== join.id && above.has(t));
      if (branches.length < 2) continue;
      const skippable = new Set(
        [...above].filter((x) => branches.filter((t) => x === t || (upstream.get(x)?.has(t) ?? false)).length === 1),
      );
      const example = `{{ default(steps.${branches[0]}.output.<field>, steps.${branches[1]}.output.<field>) }}`;
      forEachTemplate(join.step, join.path, (text, path) => {
        const parsed = parseTemplate(text);
        if (!parsed.ok) return;
        for (const part of parsed.parts) {
          if (part.kind !== "expr") continue;
          for (const stepId of bareReads(part.expr, false)) {
            if (!skippable.has(stepId)) continue;
            sink.error(
              "template.skipped_branch",
              path,
              `"${join.id}" joins the branches of decision "${decision.id}", so steps.${stepId} may have been skipped: read it through default() with every branch, field by field so each value fits where it lands, e.g. ${example} (or the whole outputs, default(steps.${branches[0]}.output, steps.${branches[1]}.output), where any JSON fits)`,
            );
          }
        }
      });
    }
  }
}

function decisionTargets(node: Node, ids: ReadonlySet<string>): string[] {
  if (node.step.uses !== "decision") return [];
  const w = node.step.with as { cases?: unknown; default?: unknown } | undefined;
  const cases = Array.isArray(w?.cases) ? (w.cases as { step?: unknown }[]) : [];
  const all = [...cases.map((c) => c?.step), w?.default];
  return [...new Set(all.filter((t): t is string => typeof t === "string" && ids.has(t)))];
}

/** Step ids an expression reads outside any `default(…)`. */
function bareReads(expr: TemplateExpr, insideDefault: boolean): string[] {
  if (expr.type === "step") return insideDefault ? [] : [expr.stepId];
  if (expr.type === "call") return expr.args.flatMap((a) => bareReads(a, insideDefault || expr.name === "default"));
  return [];
}

/** Every template string a step's runtime reads: its `with` (deeply) and its fan-out. */
function forEachTemplate(step: Record<string, unknown>, path: string, visit: (text: string, path: string) => void): void {
  const walk = (value: unknown, at: string) => {
    if (typeof value === "string") {
      if (value.includes("{{")) visit(value, at);
    } else if (Array.isArray(value))
      value.forEach((v, i) => {
        walk(v, childPath(at, i));
      });
    else if (typeof value === "object" && value !== null) for (const [k, v] of Object.entries(value)) walk(v, childPath(at, k));
  };
  if (step.uses === "code.run") {
    const w = step.with as { input?: unknown } | undefined;
    walk(w?.input, `${path}.with.input`);
  } else walk(step.with, `${path}.with`);
  walk(step.forEach, `${path}.forEach`);
}
