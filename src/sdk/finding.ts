/** How bad a finding is: errors make a document invalid, warnings do not. */
export type FindingSeverity = "error" | "warning";

/**
 * One structured problem in a document. `code` is stable API (listed in docs/lwir.md); `path` is
 * a JSONPath into the document, e.g. `$.steps[0].with.model`.
 *
 * @example
 * { severity: "error", code: "binding.input_schema_mismatch", path: "$.input.schema",
 *   message: "LWIR input schema must match the workflow definition's input schema." }
 */
export type Finding = {
  readonly severity: FindingSeverity;
  readonly code: string;
  readonly path: string;
  readonly message: string;
};

/** True when no finding is an error. */
export function hasNoErrors(findings: readonly Finding[]): boolean {
  return findings.every((f) => f.severity !== "error");
}
