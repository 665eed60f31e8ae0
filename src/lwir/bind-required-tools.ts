/**
 * @module Required tools (docs/lwir.md, "Required tools"): a definition's `requiredTools` must be
 * called on every path through the plan's decisions. Whichever step each decision chooses, some
 * tool.call step of each required tool must run (not be skipped), or the plan could complete
 * without the call the workflow exists for (a refund workflow that makes up a refund id).
 */
import type { DefinitionCapabilities } from "../identity/definition-snapshot.ts";
import type { FindingSink } from "./findings-sink.ts";
import { findCycle, upstreamSets } from "./graph.ts";
import { decisionTargets } from "./step-output-types.ts";

type Node = { readonly id: string; readonly needs: readonly string[]; readonly step: Record<string, unknown> };

/** Past this many combinations of decision choices the check is skipped rather than guessed. */
const MAX_COMBINATIONS = 4096;

/** Records `binding.required_tool_not_called` for each required tool some path never calls. */
export function checkRequiredTools(sink: FindingSink, steps: unknown, capabilities: DefinitionCapabilities): void {
  const required = capabilities.snapshot.requiredTools ?? [];
  if (required.length === 0 || !Array.isArray(steps)) return;
  const nodes = nodesOf(steps);
  if (findCycle(nodes)) return;
  const order = topological(nodes);
  const upstream = upstreamSets(nodes);
  const ids = new Set(nodes.map((n) => n.id));
  // A loop target (upstream of its decision) skips nothing for good: the decision runs again.
  const decisions = nodes
    .filter((n) => n.step.uses === "decision")
    .map((n) => ({ id: n.id, targets: decisionTargets(n.step).filter((t) => ids.has(t) && !(upstream.get(n.id)?.has(t) ?? false)) }))
    .filter((d) => d.targets.length > 0);
  const combinations = decisions.reduce((n, d) => n * d.targets.length, 1);
  for (const tool of required) {
    const callers = new Set(
      nodes.filter((n) => n.step.uses === "tool.call" && (n.step.with as { tool?: unknown } | undefined)?.tool === tool).map((n) => n.id),
    );
    const example = `{ "id": "<step>", "uses": "tool.call", "with": { "tool": "${tool}", "input": { … } }, … } (and "${tool}" in permissions.tools)`;
    if (callers.size === 0) {
      sink.error(
        "binding.required_tool_not_called",
        "$.steps",
        `The workflow requires tool "${tool}" to be called, and no step calls it: add ${example}`,
      );
      continue;
    }
    if (combinations > MAX_COMBINATIONS) continue;
    const missed = firstPathWithout(order, decisions, callers);
    if (missed)
      sink.error(
        "binding.required_tool_not_called",
        "$.steps",
        `The workflow requires tool "${tool}" on every path, but when ${missed} no step calling it runs (${[...callers].join(", ")} ${callers.size === 1 ? "is" : "are"} skipped): call it on that path too, or before the decision`,
      );
  }
}

/** The choices (as text) of a combination in which no caller runs, or null when every one runs some. */
function firstPathWithout(
  order: readonly Node[],
  decisions: readonly { id: string; targets: readonly string[] }[],
  callers: ReadonlySet<string>,
): string | null {
  const pick = decisions.map(() => 0);
  for (;;) {
    const chosen = new Map(decisions.map((d, i) => [d.id, d.targets[pick[i] as number] as string]));
    const ran = runSteps(order, decisions, chosen);
    if (![...callers].some((c) => ran.has(c)))
      return (
        decisions
          .filter((d) => ran.has(d.id) && d.targets.length > 1)
          .map((d) => `decision "${d.id}" chooses "${chosen.get(d.id)}"`)
          .join(" and ") || "the plan runs"
      );
    let i = 0;
    while (i < pick.length && (pick[i] as number) + 1 >= (decisions[i]?.targets.length ?? 0)) pick[i++] = 0;
    if (i === pick.length) return null;
    pick[i] = (pick[i] as number) + 1;
  }
}

/** The steps that run for one set of choices: a target not chosen is skipped, and so is a step all of whose needs were. */
function runSteps(
  order: readonly Node[],
  decisions: readonly { id: string; targets: readonly string[] }[],
  chosen: ReadonlyMap<string, string>,
): Set<string> {
  const ran = new Set<string>();
  for (const node of order) {
    const notChosen = decisions.some((d) => ran.has(d.id) && d.targets.includes(node.id) && chosen.get(d.id) !== node.id);
    const allNeedsSkipped = node.needs.length > 0 && node.needs.every((n) => !ran.has(n));
    if (!notChosen && !allNeedsSkipped) ran.add(node.id);
  }
  return ran;
}

function nodesOf(steps: readonly unknown[]): Node[] {
  return steps.flatMap((raw) => {
    if (typeof raw !== "object" || raw === null) return [];
    const step = raw as Record<string, unknown>;
    if (typeof step.id !== "string") return [];
    const needs = Array.isArray(step.needs) ? step.needs.filter((n): n is string => typeof n === "string" && n !== step.id) : [];
    return [{ id: step.id, needs, step }];
  });
}

function topological(nodes: readonly Node[]): Node[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const done = new Set<string>();
  const out: Node[] = [];
  const visit = (n: Node) => {
    if (done.has(n.id)) return;
    done.add(n.id);
    for (const dep of n.needs) {
      const d = byId.get(dep);
      if (d) visit(d);
    }
    out.push(n);
  };
  nodes.forEach(visit);
  return out;
}
