import { LittleError } from "./little-error.ts";

/** What RFC 8785 cannot represent, each with its own reason. */
export type CanonicalJsonRejection =
  | "undefined"
  | "function"
  | "symbol"
  | "bigint"
  | "non_finite_number"
  | "lone_surrogate"
  | "date"
  | "map"
  | "set"
  | "class_instance"
  | "cycle"
  | "too_deep";

/**
 * A value that canonical JSON refuses to hash. Thrown before any digest is computed, so a hash
 * never silently covers a lossy serialization (a Date turned into a string, a Map into `{}`).
 */
export class CanonicalJsonError extends LittleError {
  readonly code = "canonical_json_rejected";
  readonly reason: CanonicalJsonRejection;
  /** JSONPath-like location of the offending value, e.g. `$.steps[0].with`. */
  readonly path: string;

  constructor(reason: CanonicalJsonRejection, path: string) {
    super(`Cannot canonicalize ${describe(reason)} at ${path}`);
    this.name = "CanonicalJsonError";
    this.reason = reason;
    this.path = path;
  }
}

function describe(reason: CanonicalJsonRejection): string {
  switch (reason) {
    case "non_finite_number":
      return "a non-finite number (NaN or ±Infinity)";
    case "lone_surrogate":
      return "a string with a lone surrogate";
    case "class_instance":
      return "a class instance (only plain objects and arrays are JSON)";
    case "cycle":
      return "a cyclic reference";
    case "too_deep":
      return "a value nested too deeply";
    default:
      return `a value of kind ${reason}`;
  }
}
