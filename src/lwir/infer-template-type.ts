/**
 * @module Infers what a template expression evaluates to from the schemas it reads: the run
 * input, `item` in a fan-out, and the outputs of upstream steps. Mirrors `evaluate-template.ts`
 * function by function, so the inferred type is what the runtime produces.
 */
import type { TemplateExpr } from "./template.ts";
import { type Access, ANY, accessType, BOOLEAN, INTEGER, STRING, type TemplateType, typeOfValue, unionOf } from "./template-types.ts";

/** A step a join reads that runs only when `branch` of `decision` was chosen. */
export type BranchGuard = { readonly decision: string; readonly branch: string; readonly branches: readonly string[] };

/** What the expressions of one step may read. */
export type TypeScope = {
  readonly input: TemplateType;
  /** The fan-out element's type; undefined outside a fan-out. */
  readonly item: TemplateType | undefined;
  readonly steps: ReadonlyMap<string, TemplateType>;
  /** Upstream steps that may have been skipped when this step runs, by id. */
  readonly guards: ReadonlyMap<string, BranchGuard>;
};

/** When the value exists: always, or only when one of `branches` of `decision` ran. */
export type Presence = "always" | { readonly decision: string; readonly branches: ReadonlySet<string>; readonly all: readonly string[] };

/**
 * An expression's possible values: each alternative can reach the field at run time (a
 * `default(a, b)` gives a's or b's), so each must fit it.
 */
export type Inferred = { readonly alternatives: readonly TemplateType[]; readonly presence: Presence; readonly guardedBare: boolean };

/** A read of a field the schema does not have; `closed` when the schema rules it out. */
export type UnknownRead = { readonly reference: string; readonly key: string | number; readonly miss: Extract<Access, { ok: false }> };

const STRING_FUNCTIONS: ReadonlySet<string> = new Set(["json", "upper", "lower", "trim", "join"]);
const BOOLEAN_FUNCTIONS: ReadonlySet<string> = new Set(["eq", "ne", "gt", "gte", "lt", "lte", "and", "or", "not", "contains"]);

/** Infers `expr`; each unknown field read is passed to `onUnknown` (and reads as `any` after it). */
export function inferExpression(expr: TemplateExpr, scope: TypeScope, onUnknown: (read: UnknownRead) => void): Inferred {
  switch (expr.type) {
    case "literal":
      return known(typeOfValue(expr.value));
    case "input":
      return known(readPath(scope.input, "input", expr.path, onUnknown));
    case "item":
      return known(scope.item === undefined ? ANY : readPath(scope.item, "item", expr.path, onUnknown));
    case "step": {
      const root = scope.steps.get(expr.stepId) ?? ANY;
      const ty = readPath(root, `steps.${expr.stepId}.output`, expr.path, onUnknown);
      const guard = scope.guards.get(expr.stepId);
      if (!guard) return known(ty);
      return {
        alternatives: [ty],
        presence: { decision: guard.decision, branches: new Set([guard.branch]), all: guard.branches },
        guardedBare: true,
      };
    }
    case "call":
      return inferCall(expr.name, expr.args, scope, onUnknown);
  }
}

function inferCall(name: string, args: readonly TemplateExpr[], scope: TypeScope, onUnknown: (read: UnknownRead) => void): Inferred {
  const inferred = args.map((a) => inferExpression(a, scope, onUnknown));
  const bare = (i: Inferred) => i.guardedBare;
  if (name === "default" && inferred.length === 2) {
    const [a, b] = inferred as [Inferred, Inferred];
    // default(a, b) gives b when a is missing, null or "": a's alternatives without null, then b's.
    const fromA = a.alternatives.flatMap(withoutNull);
    return { alternatives: [...fromA, ...b.alternatives], presence: eitherPresent(a.presence, b.presence), guardedBare: false };
  }
  const guardedBare = name === "length" || STRING_FUNCTIONS.has(name) || BOOLEAN_FUNCTIONS.has(name) ? inferred.some(bare) : false;
  if (STRING_FUNCTIONS.has(name)) return { ...known(STRING), guardedBare };
  if (name === "length") return { ...known(INTEGER), guardedBare };
  if (BOOLEAN_FUNCTIONS.has(name)) return { ...known(BOOLEAN), guardedBare };
  return known(ANY);
}

function known(ty: TemplateType): Inferred {
  return { alternatives: [ty], presence: "always", guardedBare: false };
}

function withoutNull(ty: TemplateType): TemplateType[] {
  if (ty.kind === "null") return [];
  if (ty.kind === "union") {
    const members = ty.members.filter((m) => m.kind !== "null");
    return members.length === 0 ? [] : [unionOf(members)];
  }
  return [ty];
}

function eitherPresent(a: Presence, b: Presence): Presence {
  if (a === "always" || b === "always") return "always";
  // Guards on two different decisions: which combinations occur is not tracked; assume present.
  if (a.decision !== b.decision) return "always";
  return { decision: a.decision, branches: new Set([...a.branches, ...b.branches]), all: a.all };
}

function readPath(
  root: TemplateType,
  rootName: string,
  path: readonly (string | number)[],
  onUnknown: (read: UnknownRead) => void,
): TemplateType {
  let ty = root;
  let reference = rootName;
  for (const key of path) {
    const access = accessType(ty, key);
    if (!access.ok) {
      onUnknown({ reference, key, miss: access });
      return ANY;
    }
    reference += typeof key === "number" ? `[${key}]` : `.${key}`;
    ty = access.ty;
  }
  return ty;
}

/** True when the value may be missing when the step runs (a join's default() that leaves a branch out). */
export function mayBeMissing(presence: Presence): presence is Exclude<Presence, "always"> {
  return presence !== "always" && presence.all.some((b) => !presence.branches.has(b));
}
