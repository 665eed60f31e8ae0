/**
 * Step paths as the engine writes them: `c<cycle>/<stepId>`, a loop's later visit
 * `c<cycle>/<stepId>@<visit>`, a fan-out branch `…[<key>]`, and inside a section's occurrence the
 * same under its id (`o2/c1/<stepId>`). The inspector draws one node per step id, so it needs the
 * parts back.
 */
export type StepPathParts = {
  /** The section occurrence the step ran for, or null outside sections. */
  readonly occurrence: string | null;
  readonly cycle: number;
  readonly stepId: string;
  readonly visit: number;
  /** The fan-out branch key, or null for the step itself. */
  readonly branch: string | null;
};

const PATH = /^(?:([^/]+)\/)?c(\d+)\/([^@[\]]+)(?:@(\d+))?(?:\[(.*)\])?$/;

/**
 * Splits a step path; a path in no known shape is taken whole as a step id of cycle 1, so an
 * unexpected path still shows up somewhere instead of being dropped.
 *
 * @example
 * parseStepPath("o2/c1/score@2[a]") // { occurrence: "o2", cycle: 1, stepId: "score", visit: 2, branch: "a" }
 */
export function parseStepPath(path: string): StepPathParts {
  const match = PATH.exec(path);
  if (!match) return { occurrence: null, cycle: 1, stepId: path, visit: 1, branch: null };
  return {
    occurrence: match[1] ?? null,
    cycle: Number(match[2]),
    stepId: match[3] as string,
    visit: match[4] === undefined ? 1 : Number(match[4]),
    branch: match[5] === undefined ? null : match[5],
  };
}
