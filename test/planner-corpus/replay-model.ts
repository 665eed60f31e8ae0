import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { type ShownToolResult, toolResultsOf, writeFileCommand } from "../../src/adapters/models/offline-prompt.ts";
import type { ModelResolver } from "../../src/ports/model-resolver.ts";
import type { Finding } from "../../src/sdk/finding.ts";
import { result } from "../support/scripted-models.ts";

/** One tool call of a transcript turn. */
export type Call = { readonly tool: "bash"; readonly command: string } | { readonly tool: "submit_lwir"; readonly lwir: unknown };

/**
 * One model turn of a transcript: a tool call chosen from what the model has been shown so far
 * (the tool results in its prompt, in order). A transcript replays the same calls every time given
 * the same results; a repair reads its findings from the result of the call before it.
 */
export type Turn = (shown: readonly ShownToolResult[]) => Call;

export type BashResult = { exitCode: number; stdout: string; stderr: string };

/** A planner that plays a transcript turn by turn; after the last turn it stops with a line of text. */
export function replayingPlanner(turns: readonly Turn[]): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    provider: "openai.responses",
    modelId: "gpt-5",
    doGenerate: async (options: LanguageModelV4CallOptions) => {
      const shown = toolResultsOf(options.prompt);
      const turn = turns[shown.length];
      if (!turn) return result([{ type: "text", text: "Submitted." }]);
      const call = turn(shown);
      const n = shown.length + 1;
      return result([
        call.tool === "bash"
          ? { type: "tool-call", toolCallId: `call_${n}`, toolName: "bash", input: JSON.stringify({ command: call.command }) }
          : { type: "tool-call", toolCallId: `call_${n}`, toolName: "submit_lwir", input: JSON.stringify({ lwir: call.lwir }) },
      ]);
    },
  });
}

/** The planner role plays the transcript; worker and fixer sessions get the offline model (they are not under test here). */
export function transcriptResolver(planner: MockLanguageModelV4): ModelResolver {
  const offline = new EnvModelResolver({ mode: "offline", secrets: {} });
  return { resolve: (request) => (request.role === "planner" ? { model: planner, offline: false } : offline.resolve(request)) };
}

/** `mkdir -p drafts`, the draft written byte for byte, then `lwir-check` on it. */
export function writeAndCheck(draft: unknown, file = "drafts/plan.json"): string {
  return `mkdir -p drafts && ${writeFileCommand(file, `${JSON.stringify(draft, null, 2)}\n`)}\nlwir-check ${file}`;
}

/** Findings as `lwir-check` prints them: `<severity> <code> at <path>: <message>`, one a line. */
export function findingsFromCheck(stdout: string): Finding[] {
  const out: Finding[] = [];
  for (const line of stdout.split("\n")) {
    const m = /^(error|warning) (\S+) at (\S+): (.*)$/.exec(line);
    if (m) out.push({ severity: m[1] as Finding["severity"], code: m[2] as string, path: m[3] as string, message: m[4] as string });
  }
  return out;
}

/** The findings of the last result shown: a submit_lwir answer, or lwir-check output from bash. */
export function lastFindings(shown: readonly ShownToolResult[]): Finding[] {
  const last = shown.at(-1);
  if (!last) throw new Error("no tool result shown yet");
  if (last.toolName === "submit_lwir") return [...((last.value as { findings: Finding[] }).findings ?? [])];
  return findingsFromCheck((last.value as BashResult).stdout);
}
