/**
 * Base class of every named error in Little Workflow. `code` is stable API: the HTTP layer maps
 * it to a 4xx and clients branch on it, so never rename one.
 *
 * @example
 * try { canonicalJson(value) } catch (e) { if (LittleError.is(e)) console.log(e.code) }
 * try { await handle.trigger(request) } catch (e) { if (LittleError.is(e, "run_ended")) … }
 */
export abstract class LittleError extends Error {
  abstract readonly code: string;

  /**
   * True for any LittleError, also across module copies (checks a brand, not the prototype); with
   * `code`, only for a named error of that code. The one way to test for a named error: `instanceof`
   * fails for a second copy of the package, and the code is the stable part.
   */
  static is<C extends string = string>(value: unknown, code?: C): value is LittleError & { readonly code: C } {
    if (typeof value !== "object" || value === null || (value as { littleError?: unknown }).littleError !== true) return false;
    return code === undefined || (value as { code?: unknown }).code === code;
  }

  readonly littleError = true as const;

  toJSON(): { code: string; message: string } {
    return { code: this.code, message: this.message };
  }
}
