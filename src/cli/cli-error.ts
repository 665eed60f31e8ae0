/** A CLI failure that is the input's fault: printed as JSON on stderr, exit code 2. */
export class CliInputError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = "CliInputError";
    this.code = code;
  }
}
