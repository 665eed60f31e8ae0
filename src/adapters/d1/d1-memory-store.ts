import { and, asc, eq } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { drizzle } from "drizzle-orm/d1";
import type { Clock } from "../../ports/clock.ts";
import { systemClock } from "../../ports/clock.ts";
import { assertValidChanges, type MemoryChanges, type MemoryFiles, type MemoryStore } from "../../ports/memory-store.ts";
import { memoryFiles } from "./schema.ts";

/** The D1 adapter of {@link MemoryStore}: table `memory_files`, one row per file; a save is one batch. */
export class D1MemoryStore implements MemoryStore {
  private readonly db;
  private readonly clock: Clock;

  constructor(database: D1Database, clock: Clock = systemClock) {
    this.db = drizzle(database);
    this.clock = clock;
  }

  async load(storeId: string): Promise<MemoryFiles> {
    const rows = await this.db
      .select({ path: memoryFiles.path, content: memoryFiles.content })
      .from(memoryFiles)
      .where(eq(memoryFiles.storeId, storeId))
      .orderBy(asc(memoryFiles.path));
    return Object.fromEntries(rows.map((r) => [r.path, r.content]));
  }

  async save(storeId: string, changes: MemoryChanges): Promise<void> {
    assertValidChanges(storeId, changes);
    const at = this.clock.now();
    const statements: BatchItem<"sqlite">[] = Object.entries(changes).map(([path, content]) =>
      content === null
        ? this.db.delete(memoryFiles).where(and(eq(memoryFiles.storeId, storeId), eq(memoryFiles.path, path)))
        : this.db
            .insert(memoryFiles)
            .values({ storeId, path, content, updatedAt: at })
            .onConflictDoUpdate({ target: [memoryFiles.storeId, memoryFiles.path], set: { content, updatedAt: at } }),
    );
    const [first, ...rest] = statements;
    if (first) await this.db.batch([first, ...rest]);
  }
}
