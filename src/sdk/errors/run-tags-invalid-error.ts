import type { Finding } from "../finding.ts";
import { LittleError } from "./little-error.ts";

/**
 * A start's `tags` break the rules (docs/runs.md, "Tags"): more than 16, a key that is not 1–64
 * of `A-Z a-z 0-9 _ . -` starting with a letter or digit, or a value longer than 64 characters or
 * not a string. Answered 422 `run_tags_invalid` with one finding per broken rule; nothing is stored.
 */
export class RunTagsInvalidError extends LittleError {
  readonly code = "run_tags_invalid";
  readonly findings: readonly Finding[];
  constructor(findings: readonly Finding[]) {
    super(`The run's tags are invalid: ${findings.map((f) => f.message).join("; ")}`);
    this.name = "RunTagsInvalidError";
    this.findings = findings;
  }
}
