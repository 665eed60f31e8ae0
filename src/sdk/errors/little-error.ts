/**
 * Base class of every named error in Little Workflow. `code` is stable API: the HTTP layer maps
 * it to a 4xx and clients branch on it, so never rename one.
 *
 * @example
 * try { canonicalJson(value) } catch (e) { if (LittleError.is(e)) console.log(e.code) }
 */
export abstract class LittleError extends Error {
  abstract readonly code: string;

  /** True for any LittleError, also across module copies (checks a brand, not the prototype). */
  static is(value: unknown): value is LittleError {
    return typeof value === "object" && value !== null && (value as { littleError?: unknown }).littleError === true;
  }

  readonly littleError = true as const;

  toJSON(): { code: string; message: string } {
    return { code: this.code, message: this.message };
  }
}
