import type { Finding } from "../sdk/finding.ts";
import { childPath } from "../sdk/json-path.ts";
import { LWIR_FINDING_CODES, type LwirFindingCode } from "./finding-codes.ts";

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

  /** Records `field.required` when `key` is absent and returns the value. */
  required(obj: Record<string, unknown>, key: string, path: string): unknown {
    if (!(key in obj) || obj[key] === undefined) this.error("field.required", childPath(path, key), `${childPath(path, key)} is required`);
    return obj[key];
  }

  /** A required non-empty string, or undefined after recording a finding. */
  string(obj: Record<string, unknown>, key: string, path: string, { optional = false } = {}): string | undefined {
    const value = obj[key];
    if (value === undefined) {
      if (!optional) this.error("field.required", childPath(path, key), `${childPath(path, key)} is required`);
      return undefined;
    }
    if (typeof value !== "string" || (!optional && value.trim() === "")) {
      this.error("field.invalid_type", childPath(path, key), `${childPath(path, key)} must be a non-empty string`);
      return undefined;
    }
    return value;
  }

  /** Records `field.unknown` for every key outside `allowed`. */
  closed(obj: Record<string, unknown>, allowed: readonly string[], path: string): void {
    for (const key of Object.keys(obj)) {
      if (!allowed.includes(key))
        this.error(
          "field.unknown",
          childPath(path, key),
          `${childPath(path, key)} is not an LWIR field here (allowed: ${allowed.join(", ")})`,
        );
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
