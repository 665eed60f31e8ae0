import { parseDraft } from "../../src/harness/parse-draft.ts";
import { allowedSubmissions } from "../../src/harness/planner-prompt.ts";
import { checkDraft } from "../../src/harness/planner-session.ts";
import type { DefinitionCapabilities } from "../../src/identity/definition-snapshot.ts";
import type { Finding } from "../../src/sdk/finding.ts";
import type { CorpusCase, Expected } from "./cases.ts";
import type { ShippedTask } from "./tasks.ts";

/**
 * What `submit_lwir` answers for one submission, without a session: a string is read with
 * `parseDraft` (prose around the object tolerated, with a warning), an object is checked as is,
 * both with `checkDraft` (= `checkLwir`), the function the session's tool calls. The secret-literal
 * check is left out (no shipped example binds a secret).
 */
export function submitDirect(submitted: unknown, caps: DefinitionCapabilities): { accepted: boolean; findings: Finding[] } {
  const parsed = typeof submitted === "string" ? parseDraft(submitted) : { ok: true as const, value: submitted, findings: [] };
  const findings = parsed.ok ? [...parsed.findings, ...checkDraft(parsed.value, caps)] : [...parsed.findings];
  return { accepted: findings.every((f) => f.severity !== "error"), findings };
}

/** The object a submission carries (a string is parsed as `submit_lwir` reads it). */
export function draftObject(submitted: unknown): unknown {
  if (typeof submitted !== "string") return submitted;
  const parsed = parseDraft(submitted);
  return parsed.ok ? parsed.value : submitted;
}

export type Replayed = {
  /** Each submission's answer, first draft first. */
  readonly answers: readonly { accepted: boolean; findings: Finding[] }[];
  readonly acceptedAt: number | null;
  readonly allowed: number;
};

/** Replays a transcript's submissions (first draft, then each repair from the findings just shown) until accepted or the budget is spent. */
export function replayDirect(c: CorpusCase, t: ShippedTask): Replayed {
  const allowed = allowedSubmissions(t.caps.snapshot.plannerConfig.maxRevisions);
  const answers: { accepted: boolean; findings: Finding[] }[] = [];
  let submitted = c.draft(t);
  for (let i = 0; i < allowed; i++) {
    const answer = submitDirect(submitted, t.caps);
    answers.push(answer);
    if (answer.accepted) return { answers, acceptedAt: i + 1, allowed };
    const repair = c.repairs?.[i];
    if (!repair) break;
    submitted = repair(draftObject(submitted), answer.findings, t);
  }
  return { answers, acceptedAt: null, allowed };
}

export function expectedOf(c: CorpusCase, t: ShippedTask): readonly Expected[] {
  return typeof c.expect === "function" ? c.expect(t) : c.expect;
}

/** The expectations no finding meets (code and path equal, message containing every `says`). */
export function unmet(expected: readonly Expected[], findings: readonly Finding[]): Expected[] {
  return expected.filter(
    (e) => !findings.some((f) => f.code === e.code && f.path === e.path && (e.says ?? []).every((w) => f.message.includes(w))),
  );
}
