import { digestText } from "../../json/digest.ts";
import type { RunCodeErrorCode, RunCodeRequest } from "../../ports/sandbox.ts";

/** Relative paths of letters, digits, `_`, `.` and `-`, with no `.` or `..` segment. */
const FILE_NAME = /^(?!.*(?:^|\/)\.{1,2}(?:\/|$))[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)*$/;

/**
 * What every sandbox checks before running a code.run request (docs/sandbox.md): file names
 * are plain relative paths and not the runner's own (`reserved`), each file hashes to its locked
 * sha256, and the entrypoint is among the files. Null when the request may run.
 */
export function checkCodeFiles(
  request: RunCodeRequest,
  reserved: readonly string[],
): { readonly code: RunCodeErrorCode; readonly message: string } | null {
  for (const name of Object.keys(request.files)) {
    if (!FILE_NAME.test(name) || reserved.includes(name) || name.length > 200)
      return {
        code: "code_invalid_file_name",
        message: `${JSON.stringify(name)} is not an allowed file name: use relative paths without ".." segments`,
      };
  }
  for (const [name, file] of Object.entries(request.files)) {
    const actual = digestText(file.content);
    if (actual !== file.sha256)
      return { code: "code_integrity", message: `${name}: content hashes to ${actual}, not the locked ${file.sha256}; refusing to run it` };
  }
  if (!Object.hasOwn(request.files, request.entrypoint))
    return { code: "code_integrity", message: `the entrypoint ${request.entrypoint} is not among the files` };
  return null;
}
