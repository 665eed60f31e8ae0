import { type ParseArgsOptionsConfig, parseArgs } from "node:util";
import { CliInputError } from "./cli-error.ts";

/** Flags every API command takes: where the server is, who we are, and the output format. */
export const COMMON_OPTIONS = {
  url: { type: "string" },
  token: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const satisfies ParseArgsOptionsConfig;

/** Parsed flag values: booleans for boolean flags, strings otherwise; absent flags are undefined. */
export type FlagValues<O> = {
  [K in keyof O]?: O[K] extends { type: "boolean" } ? boolean : O[K] extends { multiple: true } ? string[] : string;
};

export type CommonFlags = { url?: string | undefined; token?: string | undefined; json?: boolean | undefined; help?: boolean | undefined };

/**
 * Strict flag parsing for one command: unknown flags, missing values and a wrong number of
 * positionals are {@link CliInputError}s with code `usage` (exit 2), naming the command.
 */
export function parseCommand<O extends ParseArgsOptionsConfig>(
  command: string,
  args: readonly string[],
  options: O,
  positionals: { min: number; max: number; names: string },
): { values: FlagValues<O & typeof COMMON_OPTIONS>; positionals: string[] } {
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...args], options: { ...COMMON_OPTIONS, ...options }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new CliInputError("usage", `little ${command}: ${error instanceof Error ? firstLine(error.message) : String(error)}`);
  }
  if (parsed.values.help !== true) {
    const count = parsed.positionals.length;
    if (count < positionals.min) throw new CliInputError("usage", `little ${command}: missing ${positionals.names}; run "little help"`);
    if (count > positionals.max) {
      throw new CliInputError(
        "usage",
        `little ${command}: unexpected argument "${parsed.positionals[positionals.max]}"; run "little help"`,
      );
    }
  }
  return parsed as { values: FlagValues<O & typeof COMMON_OPTIONS>; positionals: string[] };
}

/** A flag value that must be a whole number in [min, max]. */
export function integerFlag(
  command: string,
  flag: string,
  value: string | undefined,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new CliInputError(
      "usage",
      `little ${command}: --${flag} must be a whole number from ${min}${max === Number.MAX_SAFE_INTEGER ? " up" : ` to ${max}`}, not "${value}"`,
    );
  }
  return Number(value);
}

/** A string flag that must not be empty when given. */
export function nonEmptyFlag(command: string, flag: string, value: string | undefined): string | undefined {
  if (value !== undefined && value.trim() === "") throw new CliInputError("usage", `little ${command}: --${flag} must not be empty`);
  return value;
}

function firstLine(message: string): string {
  // parseArgs appends advice about "--" to unknown options; the first sentence is the point.
  const line = message.split("\n")[0] ?? message;
  const advice = line.indexOf(". To specify");
  return advice === -1 ? line : line.slice(0, advice + 1);
}
