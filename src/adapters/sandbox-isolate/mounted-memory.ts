import { InMemoryFs } from "just-bash";
import {
  MAX_MEMORY_FILES,
  MAX_MEMORY_STORE_BYTES,
  type MemoryChanges,
  type MemoryMount,
  type MemoryStore,
  validMemoryPath,
} from "../../ports/memory-store.ts";
import { ReadOnlyFs } from "./session-fs.ts";

/**
 * One memory store mounted in a session: its filesystem, and for `rw` mounts the content last
 * loaded or saved, so {@link persist} writes only what the session changed (a concurrent run's
 * edits to other files survive). `ro` mounts are {@link ReadOnlyFs}: writes fail with EROFS, so
 * there is never anything to persist.
 */
export class MountedMemory {
  readonly mount: MemoryMount;
  readonly fs: InMemoryFs;
  private baseline: Map<string, string>;

  private constructor(mount: MemoryMount, fs: InMemoryFs, baseline: Map<string, string>) {
    this.mount = mount;
    this.fs = fs;
    this.baseline = baseline;
  }

  /** Loads the store (or starts empty without one). Paths a store should never hold are skipped. */
  static async open(mount: MemoryMount, store: MemoryStore | undefined): Promise<MountedMemory> {
    const loaded = store ? await store.load(mount.storeId) : {};
    const files: Record<string, string> = {};
    for (const [path, content] of Object.entries(loaded)) if (validMemoryPath(path)) files[`/${path}`] = content;
    const fs =
      mount.mode === "ro"
        ? new ReadOnlyFs(files, mount.path)
        : new InMemoryFs(files, { maxTotalBytes: Math.max(MAX_MEMORY_STORE_BYTES, totalBytes(files)) });
    return new MountedMemory(mount, fs, new Map(Object.entries(files).map(([p, c]) => [p.slice(1), c])));
  }

  /** Saves the files that differ from the baseline; returns the paths written and deleted. */
  async persist(store: MemoryStore | undefined, redact?: (text: string) => string): Promise<{ saved: string[]; deleted: string[] }> {
    if (this.mount.mode !== "rw" || !store) return { saved: [], deleted: [] };
    const current = await this.files();
    const changes: Record<string, string | null> = {};
    // The store gets the redacted text (no secret is saved); the baseline keeps what the session sees.
    for (const [path, content] of current) if (this.baseline.get(path) !== content) changes[path] = redact ? redact(content) : content;
    for (const path of this.baseline.keys()) if (!current.has(path)) changes[path] = null;
    const saved = Object.keys(changes).filter((p) => changes[p] !== null);
    const deleted = Object.keys(changes).filter((p) => changes[p] === null);
    if (saved.length + deleted.length === 0) return { saved: [], deleted: [] };
    if (current.size > MAX_MEMORY_FILES)
      throw new Error(`${this.mount.path} holds ${current.size} files; a memory store keeps at most ${MAX_MEMORY_FILES}`);
    await store.save(this.mount.storeId, changes as MemoryChanges);
    this.baseline = current;
    return { saved: saved.map((p) => `${this.mount.path}/${p}`), deleted: deleted.map((p) => `${this.mount.path}/${p}`) };
  }

  /** Regular files under the mount (symlinks and invalid names are not memory). */
  private async files(): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const path of this.fs.getAllPaths().sort()) {
      const relative = path.replace(/^\/+/, "");
      if (!validMemoryPath(relative)) continue;
      const stat = await this.fs.lstat(path).catch(() => null);
      if (!stat?.isFile) continue;
      out.set(relative, await this.fs.readFile(path));
    }
    return out;
  }
}

function totalBytes(files: Record<string, string>): number {
  let n = 0;
  for (const content of Object.values(files)) n += new TextEncoder().encode(content).length;
  return n;
}
