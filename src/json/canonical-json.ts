import canonicalize from "canonicalize";
import { CanonicalJsonError, type CanonicalJsonRejection } from "../sdk/errors/canonical-json-error.ts";
import { pathOf } from "../sdk/json-path.ts";

/** The canonicalizer id recorded next to every hash this project computes. */
export const CANONICALIZER_ID = "little-workflow-canonical-json@alpha";

/** Deeper than this is refused: no workflow document needs it, and it bounds the work per value. */
export const MAX_CANONICAL_DEPTH = 512;

/** A value canonical JSON accepts: plain objects, arrays, finite numbers, strings, booleans, null. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

type Frame = { value: unknown; key: string | number | null; parent: Frame | null; depth: number };

/**
 * RFC 8785 (JCS) canonical JSON. Keys sort by UTF-16 code units; numbers use ECMAScript form.
 * Everything JCS cannot represent faithfully is refused with a {@link CanonicalJsonError} naming
 * the path, before anything is hashed.
 *
 * @example
 * canonicalJson({ b: 1, a: [true, null] }) // '{"a":[true,null],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  assertCanonicalizable(value);
  const text = canonicalize(value);
  // assertCanonicalizable refuses undefined at the root, so the library always returns a string.
  if (text === undefined) throw new CanonicalJsonError("undefined", "$");
  return text;
}

/**
 * Walks the value iteratively (deep documents cannot overflow the stack) and throws on the first
 * value JCS cannot represent. Shared references are fine; only a true cycle is refused.
 */
export function assertCanonicalizable(root: unknown): asserts root is JsonValue {
  const ancestors = new Set<object>();
  const stack: Array<{ frame: Frame; exit: boolean }> = [{ frame: { value: root, key: null, parent: null, depth: 0 }, exit: false }];
  while (stack.length > 0) {
    const item = stack.pop() as { frame: Frame; exit: boolean };
    const { frame } = item;
    const value = frame.value;
    if (item.exit) {
      ancestors.delete(value as object);
      continue;
    }
    const reason = rejectionOf(value);
    if (reason) throw new CanonicalJsonError(reason, framePath(frame));
    if (value === null || typeof value !== "object") continue;
    if (ancestors.has(value)) throw new CanonicalJsonError("cycle", framePath(frame));
    if (frame.depth >= MAX_CANONICAL_DEPTH) throw new CanonicalJsonError("too_deep", framePath(frame));
    ancestors.add(value);
    stack.push({ frame, exit: true });
    const depth = frame.depth + 1;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        stack.push({ frame: { value: value[i], key: i, parent: frame, depth }, exit: false });
      }
    } else {
      const keys = Object.keys(value);
      for (const key of keys) {
        if (!key.isWellFormed()) {
          throw new CanonicalJsonError("lone_surrogate", framePath({ value, key, parent: frame, depth }));
        }
      }
      // Pushed last-first, like array elements, so members are visited (and reported) in order.
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        const child = (value as Record<string, unknown>)[key];
        stack.push({ frame: { value: child, key, parent: frame, depth }, exit: false });
      }
    }
  }
}

function rejectionOf(value: unknown): CanonicalJsonRejection | null {
  switch (typeof value) {
    case "undefined":
      return "undefined";
    case "function":
      return "function";
    case "symbol":
      return "symbol";
    case "bigint":
      return "bigint";
    case "number":
      return Number.isFinite(value) ? null : "non_finite_number";
    case "string":
      return value.isWellFormed() ? null : "lone_surrogate";
    case "boolean":
      return null;
    default:
      break;
  }
  if (value === null || Array.isArray(value)) return null;
  if (value instanceof Date) return "date";
  if (value instanceof Map) return "map";
  if (value instanceof Set) return "set";
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return "class_instance";
  return null;
}

function framePath(frame: Frame): string {
  const keys: Array<string | number> = [];
  for (let f: Frame | null = frame; f?.parent; f = f.parent) keys.push(f.key as string | number);
  return pathOf(keys.reverse());
}
