import { type ParseError, parse, printParseErrorCode } from "jsonc-parser";
import { CliInputError } from "../cli-error.ts";

/**
 * Parses JSON with comments and trailing commas (wrangler.jsonc), with the parser VS Code and
 * wrangler's own config reader use: a `//` or a `,}` inside a string is text, not syntax. A
 * document with a syntax error is refused (`deploy_config_invalid`), never half-read.
 *
 * @example
 * parseJsonc('{ "name": "acme", /* a comment *\/ "vars": { "X": "a,}" }, }') // → { name: "acme", vars: { X: "a,}" } }
 */
export function parseJsonc(text: string, file = "wrangler.jsonc"): unknown {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first) {
    const line = text.slice(0, first.offset).split("\n").length;
    throw new CliInputError(
      "deploy_config_invalid",
      `little deploy: ${file} is not valid JSONC: ${printParseErrorCode(first.error)} at line ${line}`,
    );
  }
  return value;
}
