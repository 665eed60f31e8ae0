/**
 * Immutable string-keyed maps and sets for the run-state fold. `set` returns a new map that shares
 * all but one path of a 32-way hash trie with the old one, so a transition stays pure (the state it
 * was given is never changed) while folding a log of n events stays O(n log n): copying a plain
 * `Map` per event made a 1,000-branch fan-out's fold take seconds. Iteration follows insertion order,
 * like `Map`; it builds a `Map` first, so it costs O(n log n), fine for reading, not for a hot loop.
 */

type Leaf<V> = { readonly key: string; readonly value: V; readonly hash: number; readonly order: number };
type Bucket<V> = { readonly bucket: readonly Leaf<V>[] };
type Trie<V> = readonly (Slot<V> | undefined)[];
type Slot<V> = Leaf<V> | Bucket<V> | Trie<V>;

const BITS = 5;
const WIDTH = 1 << BITS;

/** FNV-1a over UTF-16 code units. */
function hashOf(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function isTrie<V>(slot: Slot<V>): slot is Trie<V> {
  return Array.isArray(slot);
}

function find<V>(trie: Trie<V>, key: string, hash: number): Leaf<V> | undefined {
  let node: Trie<V> = trie;
  for (let shift = 0; ; shift += BITS) {
    const slot = node[(hash >>> shift) & (WIDTH - 1)];
    if (slot === undefined) return undefined;
    if (isTrie(slot)) node = slot;
    else if ("bucket" in slot) return slot.bucket.find((l) => l.key === key);
    else return slot.key === key ? slot : undefined;
  }
}

function withSlot<V>(trie: Trie<V>, index: number, slot: Slot<V>): Trie<V> {
  const copy = trie.slice();
  copy[index] = slot;
  return copy;
}

function insert<V>(trie: Trie<V>, leaf: Leaf<V>, shift: number): Trie<V> {
  const index = (leaf.hash >>> shift) & (WIDTH - 1);
  const slot = trie[index];
  if (slot === undefined) return withSlot(trie, index, leaf);
  if (isTrie(slot)) return withSlot(trie, index, insert(slot, leaf, shift + BITS));
  if ("bucket" in slot) return withSlot(trie, index, { bucket: [...slot.bucket.filter((l) => l.key !== leaf.key), leaf] });
  if (slot.key === leaf.key) return withSlot(trie, index, leaf);
  // Two keys share this slot: push both one level down (a bucket once the hash's bits run out).
  if (shift + BITS >= 32) return withSlot(trie, index, { bucket: [slot, leaf] });
  const empty: Trie<V> = [];
  return withSlot(trie, index, insert(insert(empty, slot, shift + BITS), leaf, shift + BITS));
}

function collect<V>(trie: Trie<V>, into: Leaf<V>[]): Leaf<V>[] {
  for (const slot of trie) {
    if (slot === undefined) continue;
    if (isTrie(slot)) collect(slot, into);
    else if ("bucket" in slot) into.push(...slot.bucket);
    else into.push(slot);
  }
  return into;
}

/** An immutable map from strings; `set` returns the changed copy. */
export class PersistentMap<V> implements ReadonlyMap<string, V> {
  private static readonly EMPTY = new PersistentMap<never>([], 0, 0);

  private readonly trie: Trie<V>;
  readonly size: number;
  private readonly nextOrder: number;

  private constructor(trie: Trie<V>, size: number, nextOrder: number) {
    this.trie = trie;
    this.size = size;
    this.nextOrder = nextOrder;
  }

  static empty<V>(): PersistentMap<V> {
    return PersistentMap.EMPTY as PersistentMap<V>;
  }

  static of<V>(entries: Iterable<readonly [string, V]>): PersistentMap<V> {
    let map = PersistentMap.empty<V>();
    for (const [key, value] of entries) map = map.set(key, value);
    return map;
  }

  get(key: string): V | undefined {
    return find(this.trie, key, hashOf(key))?.value;
  }

  has(key: string): boolean {
    return find(this.trie, key, hashOf(key)) !== undefined;
  }

  /** This map with `key` set to `value` (a replaced key keeps its place in the order). */
  set(key: string, value: V): PersistentMap<V> {
    const hash = hashOf(key);
    const prior = find(this.trie, key, hash);
    if (prior && Object.is(prior.value, value)) return this;
    const leaf: Leaf<V> = { key, value, hash, order: prior ? prior.order : this.nextOrder };
    return new PersistentMap(insert(this.trie, leaf, 0), prior ? this.size : this.size + 1, prior ? this.nextOrder : this.nextOrder + 1);
  }

  /** A plain `Map` in insertion order. */
  toMap(): Map<string, V> {
    return new Map(this.toEntries());
  }

  /** The entries in insertion order, as an array (what a checkpoint writes; no `Map` built on the way). */
  toEntries(): [string, V][] {
    return collect(this.trie, [])
      .sort((a, b) => a.order - b.order)
      .map((l) => [l.key, l.value]);
  }

  forEach(callback: (value: V, key: string, map: ReadonlyMap<string, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.toMap()) callback.call(thisArg, value, key, this);
  }
  entries(): MapIterator<[string, V]> {
    return this.toMap().entries();
  }
  keys(): MapIterator<string> {
    return this.toMap().keys();
  }
  values(): MapIterator<V> {
    return this.toMap().values();
  }
  [Symbol.iterator](): MapIterator<[string, V]> {
    return this.entries();
  }
}

/** An immutable set of strings; `add` returns the changed copy. */
export class PersistentSet implements ReadonlySet<string> {
  private static readonly EMPTY = new PersistentSet(PersistentMap.empty<true>());

  private readonly map: PersistentMap<true>;

  private constructor(map: PersistentMap<true>) {
    this.map = map;
  }

  static empty(): PersistentSet {
    return PersistentSet.EMPTY;
  }

  get size(): number {
    return this.map.size;
  }
  has(key: string): boolean {
    return this.map.has(key);
  }
  add(key: string): PersistentSet {
    const next = this.map.set(key, true);
    return next === this.map ? this : new PersistentSet(next);
  }

  private toSet(): Set<string> {
    return new Set(this.toArray());
  }

  /** The keys in insertion order, as an array. */
  toArray(): string[] {
    return this.map.toEntries().map(([key]) => key);
  }
  forEach(callback: (value: string, key: string, set: ReadonlySet<string>) => void, thisArg?: unknown): void {
    for (const key of this.toSet()) callback.call(thisArg, key, key, this);
  }
  entries(): SetIterator<[string, string]> {
    return this.toSet().entries();
  }
  keys(): SetIterator<string> {
    return this.toSet().keys();
  }
  values(): SetIterator<string> {
    return this.toSet().values();
  }
  [Symbol.iterator](): SetIterator<string> {
    return this.values();
  }
}
