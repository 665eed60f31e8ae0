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

/** Writes in flight, per store and key: callers that come while one runs wait for it instead of writing again. */
const inFlight = new WeakMap<object, Map<string, Promise<void>>>();

/**
 * Writes a content-addressed row once per isolate: the definition projection and the version
 * registration of a run are the same rows for every run of the same definition and plan, and
 * rows addressed by their hash never change, so a second write is a D1 round trip (three for a
 * registration) that stores nothing. Runs still log `WorkflowVersionRegistered` each; what is read
 * back is verified against its hash on every read, as before. Only a write that succeeded is
 * remembered, for {@link WRITTEN_ONCE_TTL_MS} (`now` is the caller's clock). Callers that come
 * while the write is in flight share it (a burst of first slices would otherwise each write the
 * same row, queued one behind another at the database); when it fails, each of them fails, and
 * the next caller writes again.
 *
 * @example
 * await writtenOnce(env.versions, `definition:${hash}`, now, () => env.versions.putDefinition(snapshot, hash, now));
 */
export async function writtenOnce(store: object, key: string, now: number, write: () => Promise<void>): Promise<void> {
  const at = written.get(store)?.get(key);
  if (at !== undefined && now - at < WRITTEN_ONCE_TTL_MS && now >= at) return;
  let pending = inFlight.get(store);
  if (!pending) {
    pending = new Map();
    inFlight.set(store, pending);
  }
  const running = pending.get(key);
  if (running) return running;
  const writing = write()
    .then(() => remember(store, key, now))
    .finally(() => pending.delete(key));
  pending.set(key, writing);
  return writing;
}

function remember(store: object, key: string, now: number): void {
  let keys = written.get(store);
  if (!keys) {
    keys = new Map();
    written.set(store, keys);
  }
  if (keys.size >= MAX_KEYS) keys.clear();
  keys.set(key, now);
}
