/** Keys this isolate has written, per store; a store is dropped with its wiring (tests rebuild it). */
const written = new WeakMap<object, Set<string>>();

/** Past this many keys per store the memory starts over: a miss only costs the write again. */
const MAX_KEYS = 1_000;

/**
 * Writes a content-addressed row once per isolate: the definition projection and the version
 * registration of a run are the same rows for every run of the same definition and plan, and
 * rows addressed by their hash never change, so a second write is a D1 round trip (three for a
 * registration) that stores nothing. Runs still log `WorkflowVersionRegistered` each; what is read
 * back is verified against its hash on every read, as before. Only a write that succeeded is
 * remembered.
 *
 * @example
 * await writtenOnce(env.versions, `definition:${hash}`, () => env.versions.putDefinition(snapshot, hash, now));
 */
export async function writtenOnce(store: object, key: string, write: () => Promise<void>): Promise<void> {
  let keys = written.get(store);
  if (keys?.has(key)) return;
  await write();
  if (!keys) {
    keys = new Set();
    written.set(store, keys);
  }
  if (keys.size >= MAX_KEYS) keys.clear();
  keys.add(key);
}
