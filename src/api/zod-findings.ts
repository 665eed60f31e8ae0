import type { Finding } from "../sdk/finding.ts";

/**
 * zod's issues as the API's findings (`request.invalid`, a JSON path such as `$.items[0].id`):
 * the one shape both the HTTP routes' validation hook (app.ts) and the RPC entrypoint's argument
 * checks answer `invalid_request` with.
 *
 * @example
 * const result = schema.safeParse(body);
 * if (!result.success) throw new ApiError("invalid_request", "…", { findings: zodFindings(result.error.issues) });
 */
export function zodFindings(issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[]): Finding[] {
  return issues.map((issue) => ({
    severity: "error",
    code: "request.invalid",
    path: `$${issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("")}`,
    message: issue.message,
  }));
}
