/** Keys this isolate has written, per store, with when; a store is dropped with its wiring (tests rebuild it). */
const written = new WeakMap<object, Map<string, number>>();

/**
 * How long a write is remembered. A version nothing references is deleted only when no run
 * registered it for longer than this (the deletion's grace period is a multiple of it): a
 * registration skipped because it was remembered could otherwise leave a run on a deleted version.
 */
export const WRITTEN_ONCE_TTL_MS = 10 * 60_000;

/** Past this many keys per store the memory starts over: a miss only costs the write again. */
const MAX_KEYS = 1_000;

/**
 * Writes a content-addressed row once per isolate: the definition projection and the version
 * registration of a run are the same rows for every run of the same definition and plan, and
 * rows addressed by their hash never change, so a second write is a D1 round trip (three for a
 * registration) that stores nothing. Runs still log `WorkflowVersionRegistered` each; what is read
 * back is verified against its hash on every read, as before. Only a write that succeeded is
 * remembered, for {@link WRITTEN_ONCE_TTL_MS} (`now` is the caller's clock).
 *
 * @example
 * await writtenOnce(env.versions, `definition:${hash}`, now, () => env.versions.putDefinition(snapshot, hash, now));
 */
export async function writtenOnce(store: object, key: string, now: number, write: () => Promise<void>): Promise<void> {
  let keys = written.get(store);
  const at = keys?.get(key);
  if (at !== undefined && now - at < WRITTEN_ONCE_TTL_MS && now >= at) return;
  await write();
  if (!keys) {
    keys = new Map();
    written.set(store, keys);
  }
  if (keys.size >= MAX_KEYS) keys.clear();
  keys.set(key, now);
}
