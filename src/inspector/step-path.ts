/**
 * Step paths as the engine writes them: `c<cycle>/<stepId>`, a loop's later visit
 * `c<cycle>/<stepId>@<visit>`, and a fan-out branch `…[<key>]`. The inspector draws one node per
 * step id, so it needs the parts back.
 */
export type StepPathParts = {
  readonly cycle: number;
  readonly stepId: string;
  readonly visit: number;
  /** The fan-out branch key, or null for the step itself. */
  readonly branch: string | null;
};

const PATH = /^c(\d+)\/([^@[\]]+)(?:@(\d+))?(?:\[(.*)\])?$/;

/**
 * Splits a step path; a path in no known shape is taken whole as a step id of cycle 1, so an
 * unexpected path still shows up somewhere instead of being dropped.
 *
 * @example
 * parseStepPath("c1/score@2[a]") // { cycle: 1, stepId: "score", visit: 2, branch: "a" }
 */
export function parseStepPath(path: string): StepPathParts {
  const match = PATH.exec(path);
  if (!match) return { cycle: 1, stepId: path, visit: 1, branch: null };
  return {
    cycle: Number(match[1]),
    stepId: match[2] as string,
    visit: match[3] === undefined ? 1 : Number(match[3]),
    branch: match[4] === undefined ? null : match[4],
  };
}
