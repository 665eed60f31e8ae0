import type { LanguageModelV4Content, LanguageModelV4Prompt } from "@ai-sdk/provider";
import { BASH_TOOL, extractFixTask, type FixTask, SUBMIT_FIX_TOOL } from "../../ports/planner-protocol.ts";
import { toolResultsOf, writeFileCommand } from "./offline-prompt.ts";
import { OFFLINE_REPAIRS, type OfflineRepair, offlineRepair } from "./offline-repairs.ts";

/** Exit codes after which the repair is submitted: it passed, or there is no `node` to test with. */
const SUBMIT_AFTER_TEST = [0, 127];
const RELATIVE_IMPORT = /\bfrom\s*["']\.\.?\//;

/**
 * One turn of the offline model as a fixer, played like an agent would: read the failure from the
 * `<fix-task>` block, pick a repair from {@link OFFLINE_REPAIRS}, try the repaired file on the
 * step's input with `node` in bash, and submit it with `submit_fix` when it ran. When no repair
 * applies, or the repaired file still fails its test, it answers text and submits nothing, so the
 * session ends the normal way (the step fails with `fixer_failed`). Deterministic: the same
 * prompt gives the same answer, which replay relies on.
 */
export function offlineFixerTurn(prompt: LanguageModelV4Prompt, text: string, turn: number): LanguageModelV4Content[] {
  const task = extractFixTask(text);
  if (!task) return [{ type: "text", text: "No <fix-task> block in the prompt; nothing to repair." }];
  const repair = offlineRepair(task);
  if (!repair) {
    const known = OFFLINE_REPAIRS.map((r) => `${r.id} (${r.codes.join(", ")})`).join("; ");
    return [
      {
        type: "text",
        text: `The offline fixer has no repair for ${task.error.code}: ${task.error.message}. Its repertoire: ${known}. Not submitting a fix.`,
      },
    ];
  }
  const bashResults = toolResultsOf(prompt).filter((r) => r.toolName === BASH_TOOL);
  if (bashResults.length === 0 && !RELATIVE_IMPORT.test(repair.source)) {
    return [
      {
        type: "tool-call",
        toolCallId: `offline-fix-${turn}`,
        toolName: BASH_TOOL,
        input: JSON.stringify({ command: testCommand(task, repair) }),
      },
    ];
  }
  const test = bashResults[0]?.value as { exitCode?: unknown; stderr?: unknown } | undefined;
  if (test && !SUBMIT_AFTER_TEST.includes(Number(test.exitCode))) {
    return [
      {
        type: "text",
        text: `The ${repair.id} repair (${repair.summary}) still fails on the step's input: ${String(test.stderr ?? "")
          .trim()
          .slice(0, 500)}. Not submitting a fix.`,
      },
    ];
  }
  return [
    { type: "text", text: `Repair ${repair.id}: ${repair.summary}.` },
    { type: "tool-call", toolCallId: `offline-fix-${turn}`, toolName: SUBMIT_FIX_TOOL, input: JSON.stringify({ source: repair.source }) },
  ];
}

/** Writes the repaired file next to a small check script and runs it on the step's input. */
function testCommand(task: FixTask, repair: OfflineRepair): string {
  const file = task.entrypoint.split("/").pop() ?? task.entrypoint;
  const check = [
    `import { run } from ${JSON.stringify(`./${file}`)};`,
    `const output = await run({ input: ${JSON.stringify(task.input ?? null)} });`,
    "console.log(JSON.stringify(output));",
    "",
  ].join("\n");
  return [
    "mkdir -p fix",
    writeFileCommand(`fix/${file}`, repair.source),
    writeFileCommand("fix/check.mjs", check),
    `diff -u /mnt/task/${task.entrypoint} fix/${file}`,
    "node fix/check.mjs",
  ].join("\n");
}
