const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * Appends one key to a JSONPath: identifiers as `.key`, indexes as `[0]`, anything else quoted.
 *
 * @example
 * childPath("$.steps", 0) // "$.steps[0]"; childPath("$.files", "score.ts") // '$.files["score.ts"]'
 */
export function childPath(base: string, key: string | number): string {
  if (typeof key === "number") return `${base}[${key}]`;
  return IDENTIFIER.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}

/** JSONPath of a key sequence from the root. */
export function pathOf(keys: ReadonlyArray<string | number>): string {
  return keys.reduce<string>((path, key) => childPath(path, key), "$");
}
