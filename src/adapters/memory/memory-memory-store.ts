import { assertValidChanges, type MemoryChanges, type MemoryFiles, type MemoryStore } from "../../ports/memory-store.ts";

/** The in-memory adapter of {@link MemoryStore}, for unit tests and the memory world. */
export class MemoryMemoryStore implements MemoryStore {
  private readonly stores = new Map<string, Map<string, string>>();

  async load(storeId: string): Promise<MemoryFiles> {
    const files = this.stores.get(storeId);
    if (!files) return {};
    return Object.fromEntries([...files.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  async save(storeId: string, changes: MemoryChanges): Promise<void> {
    assertValidChanges(storeId, changes);
    const files = this.stores.get(storeId) ?? new Map<string, string>();
    for (const [path, content] of Object.entries(changes)) {
      if (content === null) files.delete(path);
      else files.set(path, content);
    }
    this.stores.set(storeId, files);
  }
}
