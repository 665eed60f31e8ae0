/**
 * @module The type of each step's output as a downstream template reads it, and which upstream
 * steps a join may find skipped. A fan-out step gives an array of its branch output (the settled
 * shape with `all_settled`); a decision gives `{ chosen }`; a tool.call step with a schemaless
 * `json` output gives what its tool's output schema says, a workflow.run what its callee's does.
 */
import type { CalleeCapabilities } from "../identity/definition-snapshot.ts";
import type { ToolDescriptor } from "../identity/tool-descriptors.ts";
import type { BranchGuard } from "./infer-template-type.ts";
import { ANY, type TemplateType, typeOfSchema } from "./template-types.ts";

/** One step as the type pass reads it: defensively, since it also runs on drafts with errors. */
export type TypedNode = {
  readonly id: string;
  readonly needs: readonly string[];
  readonly path: string;
  readonly step: Record<string, unknown>;
};

/** The type of one branch's output (what `output` describes), before any fan-out. */
export function branchOutputType(
  step: Record<string, unknown>,
  tools: ReadonlyMap<string, ToolDescriptor>,
  callees: ReadonlyMap<string, CalleeCapabilities> = new Map(),
): TemplateType {
  if (step.uses === "decision") {
    const targets = decisionTargets(step);
    return {
      kind: "object",
      fields: { chosen: { ty: targets.length > 0 ? { kind: "string", values: targets } : { kind: "string" }, required: true } },
      rest: "closed",
    };
  }
  const fixed = waitOutputType(step);
  if (fixed) return fixed;
  const output = step.output as { mode?: unknown; schema?: unknown; values?: unknown } | undefined;
  if (typeof output !== "object" || output === null) return ANY;
  switch (output.mode) {
    case "text":
      return { kind: "string" };
    case "choice":
      return Array.isArray(output.values) && output.values.every((v) => typeof v === "string")
        ? { kind: "string", values: output.values as string[] }
        : { kind: "string" };
    case "object":
    case "array":
      return typeOfSchema(output.schema);
    case "json": {
      if (output.schema !== undefined) return typeOfSchema(output.schema);
      const tool = step.uses === "tool.call" ? tools.get(String((step.with as { tool?: unknown } | undefined)?.tool)) : undefined;
      if (tool?.outputSchema) return typeOfSchema(tool.outputSchema);
      // A workflow.run's schemaless json output is the callee's output.
      const callee =
        step.uses === "workflow.run" ? callees.get(String((step.with as { workflow?: unknown } | undefined)?.workflow)) : undefined;
      return callee ? typeOfSchema(callee.outputSchema) : ANY;
    }
    default:
      return ANY;
  }
}

/**
 * The output a wait kind gives, whatever its `output` says: `{ wokeAt }` for a sleep; for a signal
 * wait one object for both outcomes (`timedOut` always there, so a decision can branch on it),
 * `signal` one of the names or null, `payload` and `receivedAt` absent on a timeout.
 */
function waitOutputType(step: Record<string, unknown>): TemplateType | null {
  if (step.uses === "wait.sleep") return { kind: "object", fields: { wokeAt: { ty: { kind: "string" }, required: true } }, rest: "closed" };
  if (step.uses !== "wait.signal") return null;
  const names = (step.with as { signals?: unknown } | undefined)?.signals;
  const named = Array.isArray(names) && names.every((n) => typeof n === "string") ? { values: names as string[] } : {};
  return {
    kind: "object",
    fields: {
      signal: { ty: { kind: "union", members: [{ kind: "string", ...named }, { kind: "null" }] }, required: true },
      payload: { ty: ANY, required: false },
      receivedAt: { ty: { kind: "string" }, required: false },
      timedOut: { ty: { kind: "boolean" }, required: true },
    },
    rest: "closed",
  };
}

/** What `steps.<id>.output` holds: the branch output, or for a fan-out the array of them. */
export function stepOutputType(
  step: Record<string, unknown>,
  tools: ReadonlyMap<string, ToolDescriptor>,
  callees: ReadonlyMap<string, CalleeCapabilities> = new Map(),
): TemplateType {
  const branch = branchOutputType(step, tools, callees);
  const fanOut = step.forEach as { failureMode?: unknown } | undefined;
  if (typeof fanOut !== "object" || fanOut === null) return branch;
  if (fanOut.failureMode !== "all_settled") return { kind: "array", items: branch };
  const settled: TemplateType = {
    kind: "union",
    members: [
      {
        kind: "object",
        fields: { status: { ty: { kind: "string", values: ["succeeded"] }, required: true }, output: { ty: branch, required: true } },
        rest: "closed",
      },
      {
        kind: "object",
        fields: { status: { ty: { kind: "string", values: ["failed"] }, required: true }, error: { ty: ANY, required: true } },
        rest: "closed",
      },
    ],
  };
  return { kind: "array", items: settled };
}

/** The steps a decision may choose (its cases' steps and its default), in order, once each. */
export function decisionTargets(step: Record<string, unknown>): string[] {
  const w = step.with as { cases?: unknown; default?: unknown } | undefined;
  const cases = Array.isArray(w?.cases) ? (w.cases as { step?: unknown }[]) : [];
  const all = [...cases.map((c) => c?.step), w?.default];
  return [...new Set(all.filter((t): t is string => typeof t === "string"))];
}

/**
 * For each step that joins two or more branches of a decision, the upstream steps that ran only
 * if one branch was chosen (the same reading as `template.skipped_branch`, validate-joins.ts).
 */
export function joinGuards(
  nodes: readonly TypedNode[],
  upstream: ReadonlyMap<string, ReadonlySet<string>>,
): Map<string, Map<string, BranchGuard>> {
  const ids = new Set(nodes.map((n) => n.id));
  const out = new Map<string, Map<string, BranchGuard>>();
  for (const decision of nodes) {
    if (decision.step.uses !== "decision") continue;
    const targets = decisionTargets(decision.step).filter((t) => ids.has(t) && !(upstream.get(decision.id)?.has(t) ?? false));
    if (targets.length < 2) continue;
    for (const join of nodes) {
      const above = upstream.get(join.id) ?? new Set<string>();
      const branches = targets.filter((t) => t !== join.id && above.has(t));
      if (branches.length < 2) continue;
      const guards = out.get(join.id) ?? new Map<string, BranchGuard>();
      for (const x of above) {
        const reached = branches.filter((t) => x === t || (upstream.get(x)?.has(t) ?? false));
        if (reached.length === 1) guards.set(x, { decision: decision.id, branch: reached[0] as string, branches });
      }
      out.set(join.id, guards);
    }
  }
  return out;
}
