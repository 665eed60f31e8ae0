import type { Finding } from "../sdk/finding.ts";
import { childPath } from "../sdk/json-path.ts";
import { closestField } from "./closest-field.ts";
import { LWIR_FINDING_CODES, type LwirFindingCode } from "./finding-codes.ts";
import type { ShapeSpec } from "./lwir-spec.ts";

/** Step fields a model may put inside `with` by mistake. */
const STEP_LEVEL: ReadonlySet<string> = new Set(["output", "forEach", "retry", "timeoutMs", "needs", "onFailure", "uses", "description"]);

/** Collects findings; codes are checked against the catalog at compile time. */
export class FindingSink {
  readonly findings: Finding[] = [];

  error(code: LwirFindingCode, path: string, message: string = LWIR_FINDING_CODES[code]): void {
    this.findings.push({ severity: "error", code, path, message });
  }

  warn(code: LwirFindingCode, path: string, message: string = LWIR_FINDING_CODES[code]): void {
    this.findings.push({ severity: "warning", code, path, message });
  }

  /** Reads `value` as a plain object, or records `field.invalid_type` and returns undefined. */
  object(value: unknown, path: string): Record<string, unknown> | undefined {
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
    this.error("field.invalid_type", path, `${path} must be an object`);
    return undefined;
  }

  /** Records `field.required` when `key` is absent and returns the value; `hint` says what it must hold. */
  required(obj: Record<string, unknown>, key: string, path: string, hint?: string): unknown {
    if (!(key in obj) || obj[key] === undefined) this.missing(childPath(path, key), hint);
    return obj[key];
  }

  /** Records `field.required` at `path`, saying what the field must hold when known. */
  missing(path: string, hint?: string): void {
    this.error("field.required", path, hint ? `${path} is required: ${hint}` : `${path} is required`);
  }

  /** A required non-empty string, or undefined after recording a finding. */
  string(
    obj: Record<string, unknown>,
    key: string,
    path: string,
    { optional = false, hint }: { optional?: boolean; hint?: string } = {},
  ): string | undefined {
    const value = obj[key];
    if (value === undefined) {
      if (!optional) this.missing(childPath(path, key), hint);
      return undefined;
    }
    if (typeof value !== "string" || (!optional && value.trim() === "")) {
      this.error(
        "field.invalid_type",
        childPath(path, key),
        `${childPath(path, key)} must be a non-empty string${hint ? `: ${hint}` : ""}`,
      );
      return undefined;
    }
    return value;
  }

  /**
   * Records `field.unknown` for every key outside the shape (or list), naming the field it most
   * likely meant, so one finding is enough to repair it.
   */
  closed(obj: Record<string, unknown>, shape: ShapeSpec | readonly string[], path: string): void {
    const allowed = Array.isArray(shape) ? (shape as readonly string[]) : Object.keys((shape as ShapeSpec).fields);
    for (const key of Object.keys(obj)) {
      if (allowed.includes(key)) continue;
      const at = childPath(path, key);
      const misplaced =
        path.endsWith(".with") && STEP_LEVEL.has(key)
          ? ` "${key}" belongs on the step itself (${path.slice(0, -5)}.${key}), not inside with.`
          : "";
      const guess = misplaced ? undefined : closestField(key, allowed);
      const hint = guess ? ` Did you mean "${guess}"?` : misplaced;
      this.error("field.unknown", at, `${at} is not an LWIR field here.${hint} Allowed: ${allowed.join(", ")}`);
    }
  }

  /** An integer within bounds; anything else records `code`. */
  integer(value: unknown, min: number, max: number, code: LwirFindingCode, path: string): number | undefined {
    if (value === undefined) return undefined;
    if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
      this.error(code, path);
      return undefined;
    }
    return value;
  }
}
