import type { DefinitionCapabilities } from "../identity/definition-snapshot.ts";
import { checkLwir } from "../lwir/check-lwir.ts";
import type { ExecResult, HostCommand } from "../ports/sandbox.ts";
import type { Finding } from "../sdk/finding.ts";
import { parseDraft } from "./parse-draft.ts";
import { LWIR_CHECK_COMMAND } from "./planner-prompt.ts";

const USAGE = `usage: ${LWIR_CHECK_COMMAND} <file.json> [--json]   (or: cat draft.json | ${LWIR_CHECK_COMMAND} -)\n`;

/**
 * `lwir-check <file>` in the planner's bash: the same validation and binding `submit_lwir` runs,
 * against the same task, without spending a revision. Prints one finding per line (or JSON with
 * `--json`); exit 0 when the draft would be accepted, 1 when not, 2 on a usage error.
 */
export function lwirCheckCommand(capabilities: DefinitionCapabilities): HostCommand {
  return {
    name: LWIR_CHECK_COMMAND,
    async run(args, io): Promise<ExecResult> {
      const asJson = args.includes("--json");
      const files = args.filter((a) => a !== "--json");
      if (files.length !== 1) return { exitCode: 2, stdout: "", stderr: USAGE };
      const file = files[0] as string;
      const text = file === "-" ? io.stdin : await io.readFile(file);
      if (text === null) return { exitCode: 2, stdout: "", stderr: `${LWIR_CHECK_COMMAND}: ${file}: no such file\n` };
      const draft = parseDraft(text);
      const findings = draft.ok ? [...draft.findings, ...checkLwir(draft.value, capabilities)] : draft.findings;
      const accepted = findings.every((f) => f.severity !== "error");
      const stdout = asJson ? `${JSON.stringify({ accepted, findings }, null, 2)}\n` : report(accepted, findings);
      return { exitCode: accepted ? 0 : 1, stdout, stderr: "" };
    },
  };
}

function report(accepted: boolean, findings: readonly Finding[]): string {
  const lines = findings.map((f) => `${f.severity} ${f.code} at ${f.path}: ${f.message}`);
  const errors = findings.filter((f) => f.severity === "error").length;
  lines.push(accepted ? "OK: submit_lwir would accept this draft." : `${errors} error(s): submit_lwir would reject this draft.`);
  return `${lines.join("\n")}\n`;
}
