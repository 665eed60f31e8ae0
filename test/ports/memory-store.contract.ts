import { describe, expect, it } from "vitest";
import { MAX_MEMORY_FILE_BYTES, type MemoryStore, MemoryStoreError } from "../../src/ports/memory-store.ts";

/** Makes the store under test. Stores may share data between tests, so every test uses its own ids. */
export type MakeMemoryStore = () => MemoryStore | Promise<MemoryStore>;

const uniqueStore = (label: string) => `workflow:contract.${label}.${crypto.randomUUID()}`;

/** The MemoryStore contract, run against every adapter. */
export function memoryStoreContract(name: string, make: MakeMemoryStore): void {
  describe(`MemoryStore contract: ${name}`, () => {
    it("loads a store never written as empty", async () => {
      const store = await make();
      expect(await store.load(uniqueStore("empty"))).toEqual({});
    });

    it("saves files and loads them back, sorted by path, unicode intact", async () => {
      const store = await make();
      const id = uniqueStore("roundtrip");
      await store.save(id, { "notes/b.md": "second\n", "a.md": "first — ünïcödé ✓\n", "lessons.md": "" });
      const loaded = await store.load(id);
      expect(loaded).toEqual({ "a.md": "first — ünïcödé ✓\n", "lessons.md": "", "notes/b.md": "second\n" });
      expect(Object.keys(loaded)).toEqual(["a.md", "lessons.md", "notes/b.md"]);
    });

    it("applies changes as a patch: overwrite, delete with null, leave the rest", async () => {
      const store = await make();
      const id = uniqueStore("patch");
      await store.save(id, { "keep.md": "k", "change.md": "old", "drop.md": "d" });
      await store.save(id, { "change.md": "new", "drop.md": null, "added.md": "a", "never-existed.md": null });
      expect(await store.load(id)).toEqual({ "added.md": "a", "change.md": "new", "keep.md": "k" });
    });

    it("keeps stores apart", async () => {
      const store = await make();
      const a = uniqueStore("a");
      const b = uniqueStore("b");
      await store.save(a, { "x.md": "in a" });
      await store.save(b, { "x.md": "in b" });
      await store.save(a, { "x.md": null });
      expect(await store.load(a)).toEqual({});
      expect(await store.load(b)).toEqual({ "x.md": "in b" });
    });

    it("accepts an empty change set", async () => {
      const store = await make();
      const id = uniqueStore("noop");
      await store.save(id, {});
      expect(await store.load(id)).toEqual({});
    });

    it.each(["../x", "a/../../x", "/etc/passwd", "a//b", "./a", "a/./b", "a/", "", "a\\b", "a\u0000b", "x".repeat(513)])(
      "refuses the path %j and applies nothing of that save",
      async (path) => {
        const store = await make();
        const id = uniqueStore("badpath");
        await expect(store.save(id, { "ok.md": "fine", [path]: "evil" })).rejects.toThrow(MemoryStoreError);
        expect(await store.load(id)).toEqual({});
      },
    );

    it("refuses a file larger than the limit", async () => {
      const store = await make();
      const id = uniqueStore("big");
      await expect(store.save(id, { "big.md": "x".repeat(MAX_MEMORY_FILE_BYTES + 1) })).rejects.toThrow(/larger than/);
      expect(await store.load(id)).toEqual({});
    });
  });
}
