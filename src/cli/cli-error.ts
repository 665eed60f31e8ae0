/**
 * A CLI failure that is the input's fault: printed as JSON on stderr, exit code 2. (A failure on
 * the server's side of the wire is the client's `LittleClientError`, exit code 3.)
 */
export class CliInputError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = "CliInputError";
    this.code = code;
  }
}
