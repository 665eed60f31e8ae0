import type { DefinitionCapabilities } from "../identity/definition-snapshot.ts";
import { canonicalJson } from "../json/canonical-json.ts";
import { compileAndLock, type LockedVersion } from "../lwir/register-workflow-version.ts";

/** Locks of given LWIR this isolate has compiled, by definition hash and canonical document. */
const locks = new Map<string, LockedVersion>();

/** Past this many the oldest is dropped: a miss only compiles again. */
const MAX_LOCKS = 100;

/**
 * Compiles and locks a given LWIR (`POST /v1/lwir/runs`, a pinned version) once per isolate per
 * definition: validation, binding, the version's content address and the lock's hash are a pure
 * function of the document and the definition's capabilities (which its hash names), and the same
 * plan run many times — what a pinned version is for — would otherwise pay them on every run.
 * What it throws (`LwirInvalidError`) is not remembered; the locked version is shared read-only.
 *
 * @example
 * const locked = lockedOnce(run.lwir, capabilities); // the second run of this document and definition compiles nothing
 */
export function lockedOnce(lwir: unknown, capabilities: DefinitionCapabilities): LockedVersion {
  let key: string;
  try {
    // The normalizer and the validator too: binding compares the document's schemas under it, and a definition can hash the same under two.
    key = `${capabilities.definitionHash}\n${capabilities.schemaNormalizer}\n${capabilities.lwirValidator}\n${canonicalJson(lwir)}`;
  } catch {
    // Not JSON the log could hold: compileAndLock says why.
    return compileAndLock(lwir, capabilities);
  }
  const known = locks.get(key);
  if (known) return known;
  const locked = compileAndLock(lwir, capabilities);
  if (locks.size >= MAX_LOCKS) locks.delete(locks.keys().next().value as string);
  locks.set(key, locked);
  return locked;
}
