import { Allow, parse } from "partial-json";

/**
 * Past this many characters a partial object is no longer parsed for each delta (a parse reads the
 * whole text, so a long answer would cost quadratic time): the text deltas go on alone.
 */
export const PARTIAL_OBJECT_MAX_CHARS = 64 * 1024;

/**
 * The object a structured answer's JSON text so far stands for (`partial-json` closes the open
 * strings, arrays and objects); `undefined` while nothing parses yet or past
 * {@link PARTIAL_OBJECT_MAX_CHARS}.
 *
 * @example
 * partialObjectOf('{"summary":"The dash') // { summary: "The dash" }
 */
export function partialObjectOf(text: string): unknown {
  if (text.length > PARTIAL_OBJECT_MAX_CHARS || text.trim().length === 0) return undefined;
  try {
    return parse(text, Allow.ALL);
  } catch {
    return undefined;
  }
}
