import { CANONICALIZER_ID, canonicalJson } from "../json/canonical-json.ts";
import { type Digest, digestPrefix, digestText } from "../json/digest.ts";

/** An immutable, content-addressed compiled workflow (compile stage 8, docs/architecture.md). */
export type WorkflowVersion<T = unknown> = {
  readonly id: `wfver_${string}`;
  readonly hash: Digest;
  readonly canonicalizer: typeof CANONICALIZER_ID;
  readonly canonicalJson: string;
  readonly lwir: T;
};

/** `wfver_` + the first 16 hex digits of the hash. */
export function versionIdOf(hash: Digest): `wfver_${string}` {
  return `wfver_${digestPrefix(hash, 16)}`;
}

/**
 * Content-addresses a document: equal documents (in any key order) give equal versions. The
 * returned `lwir` is parsed back from the canonical JSON, so it holds exactly the hashed bytes.
 */
export function contentAddress<T>(document: T): WorkflowVersion<T> {
  const text = canonicalJson(document);
  const hash = digestText(text);
  return { id: versionIdOf(hash), hash, canonicalizer: CANONICALIZER_ID, canonicalJson: text, lwir: JSON.parse(text) as T };
}
