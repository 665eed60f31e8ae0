import { CliInputError } from "./cli-error.ts";

/** `--input` is inline JSON, `@file`, or `@-` for stdin; a file or JSON problem is exit 2. */
export async function readInput(command: string, raw: string): Promise<unknown> {
  if (raw.startsWith("@")) {
    const path = raw.slice(1);
    if (path === "") throw new CliInputError("usage", `little ${command}: --input @ needs a file name (or @- for stdin)`);
    const { readJsonDocument } = await import("./read-document.ts");
    return (await readJsonDocument(path)).value;
  }
  try {
    return JSON.parse(raw);
  } catch (error) {
    throw new CliInputError(
      "invalid_json",
      `--input is not valid JSON (${error instanceof Error ? error.message : String(error)}); pass JSON, or @file`,
    );
  }
}
