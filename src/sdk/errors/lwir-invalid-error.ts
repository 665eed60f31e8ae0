import type { Finding } from "../finding.ts";
import { LittleError } from "./little-error.ts";

/** LWIR that failed validation or the binding pass; never registered, never run. */
export class LwirInvalidError extends LittleError {
  readonly code = "lwir_invalid";
  readonly findings: readonly Finding[];
  constructor(findings: readonly Finding[]) {
    const errors = findings.filter((f) => f.severity === "error");
    super(
      `LWIR is invalid (${errors.length} error${errors.length === 1 ? "" : "s"}): ${errors
        .slice(0, 3)
        .map((f) => `${f.code} at ${f.path}`)
        .join("; ")}${errors.length > 3 ? "; …" : ""}`,
    );
    this.name = "LwirInvalidError";
    this.findings = findings;
  }
}
