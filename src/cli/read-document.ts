import { readFile, stat } from "node:fs/promises";
import { MAX_LWIR_BYTES } from "../lwir/validate-lwir.ts";
import { CliInputError } from "./cli-error.ts";

/** The largest file the CLI reads; anything bigger is refused before it is read. */
export const MAX_DOCUMENT_BYTES = MAX_LWIR_BYTES;

/**
 * Reads and parses a JSON file (`-` for stdin). Every failure is a {@link CliInputError} with a
 * stable code: `file_not_found`, `file_unreadable`, `document_too_large`, `invalid_json`.
 */
export async function readJsonDocument(path: string): Promise<{ value: unknown; bytes: number }> {
  const text = path === "-" ? await readStdin() : await readTextFile(path);
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > MAX_DOCUMENT_BYTES) throw tooLarge(bytes);
  try {
    return { value: JSON.parse(text), bytes };
  } catch (error) {
    throw new CliInputError(
      "invalid_json",
      `${path === "-" ? "stdin" : path} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

async function readTextFile(path: string): Promise<string> {
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new CliInputError("file_unreadable", `${path} is not a file`);
    size = info.size;
  } catch (error) {
    if (error instanceof CliInputError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new CliInputError("file_not_found", `${path} does not exist`);
    throw new CliInputError("file_unreadable", `${path} cannot be read (${code ?? "unknown error"})`);
  }
  if (size > MAX_DOCUMENT_BYTES) throw tooLarge(size);
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    throw new CliInputError("file_unreadable", `${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? "unknown error"})`);
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of process.stdin) {
    const buffer = chunk as Buffer;
    total += buffer.length;
    if (total > MAX_DOCUMENT_BYTES) throw tooLarge(total);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function tooLarge(bytes: number): CliInputError {
  return new CliInputError("document_too_large", `the document is ${bytes} bytes; the limit is ${MAX_DOCUMENT_BYTES} bytes (4 MiB)`);
}
