/**
 * Quotes one argument for a POSIX shell: wrapped in single quotes, each `'` written as `'\''`.
 * Inside single quotes nothing is special, so file names, scripts and input reach the helper as
 * exactly the bytes given — the only way the container adapter puts untrusted text on a command line.
 *
 * @example
 * shellQuote("it's $(here)") // `'it'\''s $(here)'`
 */
export function shellQuote(arg: string): string {
  return `'${arg.replaceAll("'", `'\\''`)}'`;
}

/** A command line of quoted words. */
export function shellCommand(words: readonly string[]): string {
  return words.map(shellQuote).join(" ");
}
