#!/usr/bin/env node
/**
 * `little`: the command-line client. Local commands (`validate`, `hash`) print JSON; API commands
 * print aligned, human output (colour on a TTY unless NO_COLOR is set) or JSON with `--json`.
 * Exit codes: 0 ok, 1 invalid LWIR / a run that failed or was cancelled, 2 usage or input error,
 * 3 server or network error. Never a stack trace.
 *
 * @example
 * little validate workflow.lwir.json   # exit 0 valid, 1 invalid, 2 unreadable
 * little hash workflow.lwir.json       # {"hash":"sha256:…","versionId":"wfver_…",…}
 * little run support.summarize-ticket --input @ticket.json --wait
 * little events run_123 --follow
 */
import { cliErrorBody, isRecord, LittleClientError } from "./api-client.ts";
import { CliInputError } from "./cli-error.ts";
import { colorEnabled, painter } from "./output.ts";
import { USAGE } from "./usage.ts";

type ApiCommand = (args: readonly string[]) => Promise<number>;

/** Each command's module is loaded only when it runs, so `little` starts fast. */
const API_COMMANDS: Readonly<Record<string, () => Promise<ApiCommand>>> = {
  run: async () => (await import("./commands/run.ts")).runCommand,
  runs: async () => (await import("./commands/runs.ts")).runsCommand,
  events: async () => (await import("./commands/events.ts")).eventsCommand,
  versions: async () => (await import("./commands/versions.ts")).versionsCommand,
  cancel: async () => (await import("./commands/cancel.ts")).cancelCommand,
  restart: async () => (await import("./commands/fork.ts")).restartCommand,
  fork: async () => (await import("./commands/fork.ts")).forkCommand,
  compare: async () => (await import("./commands/fork.ts")).compareCommand,
  delete: async () => (await import("./commands/delete.ts")).deleteCommand,
  bulk: async () => (await import("./commands/bulk.ts")).bulkCommand,
  pause: async () => (await import("./commands/pause.ts")).pauseCommand,
  resume: async () => (await import("./commands/pause.ts")).resumeCommand,
  trigger: async () => (await import("./commands/trigger.ts")).triggerCommand,
  sections: async () => (await import("./commands/sections.ts")).sectionsCommand,
  supersede: async () => (await import("./commands/sections.ts")).supersedeCommand,
  queues: async () => (await import("./commands/queues.ts")).queuesCommand,
  approvals: async () => (await import("./commands/approve.ts")).approvalsCommand,
  approve: async () => (await import("./commands/approve.ts")).approveCommand,
  signal: async () => (await import("./commands/signal.ts")).signalCommand,
  token: async () => (await import("./commands/token.ts")).tokenCommand,
  // Project commands: they run in (or create) a Worker project, and share the flag parsing.
  init: async () => (await import("./commands/init.ts")).initCommand,
  deploy: async () => (await import("./commands/deploy.ts")).deployCommand,
  dev: async () => (await import("./commands/dev.ts")).devCommand,
};

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...args] = argv;
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    process.stdout.write(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command === "--version" || command === "-v" || command === "version") {
    process.stdout.write(`${(await import("./version.ts")).packageVersion()}\n`);
    return 0;
  }
  const api = Object.hasOwn(API_COMMANDS, command) ? API_COMMANDS[command] : undefined;
  if (api) return (await api())(args);
  const run: ((args: readonly string[]) => Promise<{ output: unknown; exitCode: number }>) | undefined =
    command === "validate"
      ? (await import("./commands/validate.ts")).validateCommand
      : command === "hash"
        ? async (files) => {
            if (files.length !== 1) throw new CliInputError("usage", `"little hash" takes exactly one file (or - for stdin)`);
            return (await import("./commands/hash.ts")).hashCommand(files[0] as string);
          }
        : undefined;
  if (!run) throw new CliInputError("usage", `unknown command "${command}"; run "little help"`);
  if (args.length === 1 && (args[0] === "--help" || args[0] === "-h")) {
    // As every other command answers --help: the usage, not a file named "--help".
    process.stdout.write(USAGE);
    return 0;
  }
  const { output, exitCode } = await run(args);
  process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
  return exitCode;
}

/** Errors are JSON for the local commands, unknown commands and `--json`; a readable line otherwise. */
function wantsJsonErrors(argv: readonly string[]): boolean {
  const [command, ...args] = argv;
  if (command === undefined || !Object.hasOwn(API_COMMANDS, command)) return true;
  const end = args.indexOf("--");
  return (end === -1 ? args : args.slice(0, end)).includes("--json");
}

function reportError(error: unknown, json: boolean): number {
  const [body, exitCode, status]: [Record<string, unknown> & { code: string; message: string }, number, number | undefined] =
    error instanceof CliInputError
      ? [{ code: error.code, message: error.message }, 2, undefined]
      : error instanceof LittleClientError
        ? [cliErrorBody(error), 3, error.status]
        : [{ code: "internal_error", message: error instanceof Error ? error.message : String(error) }, 3, undefined];
  if (json) {
    process.stderr.write(`${JSON.stringify({ error: body })}\n`);
    return exitCode;
  }
  const paint = painter(colorEnabled(process.stderr));
  const where = status !== undefined ? `, HTTP ${status}` : "";
  const lines = [`${paint("red", "error")} (${body.code}${where}): ${body.message}`];
  if (Array.isArray(body.findings)) {
    for (const finding of body.findings.slice(0, 20)) {
      if (!isRecord(finding)) continue;
      const path = typeof finding.path === "string" ? `${finding.path}: ` : "";
      const code = typeof finding.code === "string" ? ` [${finding.code}]` : "";
      lines.push(`  - ${path}${typeof finding.message === "string" ? finding.message : JSON.stringify(finding)}${code}`);
    }
    if (body.findings.length > 20) lines.push(`  … and ${body.findings.length - 20} more`);
  }
  process.stderr.write(`${lines.join("\n")}\n`);
  return exitCode;
}

// A closed pipe (`little events … | head`) ends the program quietly, not with a stack trace.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  process.exitCode = 3;
});

const argv = process.argv.slice(2);
main(argv).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.exitCode = reportError(error, wantsJsonErrors(argv));
  },
);
