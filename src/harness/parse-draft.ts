import type { Finding } from "../sdk/finding.ts";

export type ParsedDraft =
  | { readonly ok: true; readonly value: unknown; readonly findings: readonly Finding[] }
  | { readonly ok: false; readonly findings: readonly Finding[] };

/**
 * Reads a draft given as text (a file for `lwir-check`, or a model that passed the document as a
 * JSON string to `submit_lwir`): the JSON object itself, or the one object inside prose or a
 * ```json fence, with a warning that says to pass the object. What is hashed is the parsed
 * object, so leniency here changes nothing downstream.
 */
export function parseDraft(text: string): ParsedDraft {
  try {
    return { ok: true, value: JSON.parse(text), findings: [] };
  } catch {
    // fall through: perhaps prose around one object
  }
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start !== -1 && end > start) {
    try {
      const value: unknown = JSON.parse(text.slice(start, end + 1));
      return {
        ok: true,
        value,
        findings: [
          {
            severity: "warning",
            code: "submission.text_around_json",
            path: "$",
            message:
              "The draft had text around the JSON document; only the object between the first { and the last } was read. Submit the object alone.",
          },
        ],
      };
    } catch {
      // not JSON either
    }
  }
  return {
    ok: false,
    findings: [
      {
        severity: "error",
        code: "submission.not_json",
        path: "$",
        message:
          'The draft is not a JSON document. Submit the LWIR object itself: submit_lwir({ "lwir": { "apiVersion": …, "steps": [...] } }).',
      },
    ],
  };
}
