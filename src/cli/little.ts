#!/usr/bin/env node
/**
 * `little`: the command-line client. Output is JSON on stdout; input errors are JSON on stderr
 * with exit code 2, never a stack trace.
 *
 * @example
 * little validate workflow.lwir.json   # exit 0 valid, 1 invalid, 2 unreadable
 * little hash workflow.lwir.json       # {"hash":"sha256:…","versionId":"wfver_…",…}
 */
import { CliInputError } from "./cli-error.ts";
import { hashCommand } from "./commands/hash.ts";
import { validateCommand } from "./commands/validate.ts";

const USAGE = `usage: little <command> [args]

commands:
  validate <lwir.json|->   validate an LWIR document; prints {"valid","findings"}
                           exit 0 valid, 1 invalid, 2 unreadable input
  hash <file.json|->       print the canonical digest (RFC 8785, sha256) and the version id
  help                     show this text
`;

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...args] = argv;
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    process.stdout.write(USAGE);
    return command === undefined ? 2 : 0;
  }
  const run = command === "validate" ? validateCommand : command === "hash" ? hashCommand : undefined;
  if (!run) throw new CliInputError("usage", `unknown command "${command}"; run "little help"`);
  if (args.length !== 1) throw new CliInputError("usage", `"little ${command}" takes exactly one file (or - for stdin)`);
  const { output, exitCode } = await run(args[0] as string);
  process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
  return exitCode;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof CliInputError) {
      process.stderr.write(`${JSON.stringify({ error: { code: error.code, message: error.message } })}\n`);
      process.exitCode = 2;
      return;
    }
    process.stderr.write(`${JSON.stringify({ error: { code: "internal_error", message: error instanceof Error ? error.message : String(error) } })}\n`);
    process.exitCode = 3;
  },
);
