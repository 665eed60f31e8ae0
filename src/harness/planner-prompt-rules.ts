/**
 * @module The planner prompt's rule lines, by the LWIR validator the run keeps. A run recorded
 * under validator `@1` is shown the `@1` text (byte for byte what it was planned with), so its
 * recorded planner calls still match their request hashes on resume; `@2` states the rules `@2`
 * enforces (types, required tools) and the facts that were hidden (turns, the bash sandbox).
 */
import type { LwirValidatorId } from "../identity/lwir-validator-id.ts";

/** The lines of the system prompt that differ between validator versions. */
export type PromptRules = {
  /** Extra lines at the end of "Rules". */
  readonly rules: readonly string[];
  /** How to take a code.run file's digest, and what the bash sandbox has. */
  readonly codeRun: string;
  /** The lwir-check line and the budget lines under "Checking and budget". */
  readonly check: (command: string, maxTurns: number, submissions: number, maxRevisions: number) => readonly string[];
};

const V1: PromptRules = {
  rules: [],
  codeRun: `code.run: the entrypoint exports run({ input }) and returns the output as JSON. files["x.ts"].sha256 is "sha256:" + the hex SHA-256 of the content:
write the file in bash, run sha256sum x.ts, prefix "sha256:". A failing step with onFailure.fixer gets a repair session.`,
  check: (command, _maxTurns, submissions, maxRevisions) => [
    `- ${command} <file> validates a draft file against this task exactly as submit_lwir does and prints the findings; it costs nothing. Check before you submit.`,
    `- You may submit ${submissions} times: a first draft and ${maxRevisions} revisions. Each rejected submission answers every finding at once with its path and the fix; remainingRevisions says how many are left.`,
  ],
};

const V2: PromptRules = {
  rules: [
    "- Every tool in workflowSnapshot.requiredTools must be called (a tool.call step) on every path through your decisions.",
    "- Types are checked: each {{ expr }} has the type of the schema it reads (the input, a step's output) and must fit where it lands (a tool's input field, a prompt, forEach.items, the terminal output).",
  ],
  codeRun: `code.run: the entrypoint exports run({ input }) and returns the output as JSON. files["x.ts"].sha256 is "sha256:" + the hex SHA-256 of the content:
write the file in bash, then echo "sha256:$(sha256sum x.ts | cut -d' ' -f1)" (hash the file itself: $(cat x.ts) drops a trailing newline). A failing step with onFailure.fixer gets a repair session.
The bash sandbox: jq, awk, sed, sha256sum and heredocs work; node is v24 without node:fs or network (pass data on stdin or with -e); python3 is absent.`,
  check: (command, maxTurns, submissions, maxRevisions) => [
    `- ${command} <file> validates a draft file against this task exactly as submit_lwir does and prints the findings; it spends no submission, but each bash call is a turn. Check before you submit (one bash call can write the draft and check it).`,
    `- You have ${maxTurns} turns (model replies) in all; every tool result says turnsLeft, and the session ends when none are left.`,
    `- You may submit ${submissions} times: a first draft and ${maxRevisions} revisions. Each rejected submission answers every finding at once with its path and the fix; remainingRevisions says how many submissions are left after that one (accepted or not).`,
  ],
};

/** `@3`: `@2` and the wait kinds. */
const V3: PromptRules = {
  ...V2,
  rules: [
    ...V2.rules,
    "- wait.sleep waits a time (durationMs, or until an ISO-8601 instant); wait.signal waits for one of workflowSnapshot.signals[].name (each with its payload schema) or its timeoutMs. A waiting run holds no CPU and no open request. Branch on a signal wait's {{ steps.<id>.output.timedOut }} with a decision; {{ steps.<id>.output.payload }} is the signal's payload.",
  ],
};

/** The rule lines for a run's validator. */
export function promptRules(validator: LwirValidatorId): PromptRules {
  return validator === "little-workflow-lwir-validator@1" ? V1 : validator === "little-workflow-lwir-validator@2" ? V2 : V3;
}
