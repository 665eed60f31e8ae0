import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { D1MemoryStore } from "../../../src/adapters/d1/d1-memory-store.ts";
import { MemoryMemoryStore } from "../../../src/adapters/memory/memory-memory-store.ts";
import { JustBashSandbox } from "../../../src/adapters/sandbox-isolate/just-bash-sandbox.ts";
import { execAndPersist, memoryMounts } from "../../../src/harness/session-memory.ts";
import { MAX_MEMORY_STORE_BYTES, type MemoryMount, type MemoryStore } from "../../../src/ports/memory-store.ts";

const WF = "workflow:mounts.test";
const ORG = "org:acme";
const mounts = (workflow: "rw" | "ro", org: "rw" | "ro"): MemoryMount[] => [
  { path: "/mnt/memory/workflow", storeId: WF, mode: workflow },
  { path: "/mnt/memory/org", storeId: ORG, mode: org },
];

async function seeded(): Promise<MemoryStore> {
  const store = new MemoryMemoryStore();
  await store.save(WF, { "lessons.md": "- keep it short\n", "old/notes.md": "stale\n" });
  await store.save(ORG, { "policy.md": "Escalate outages.\n" });
  return store;
}

const open = (store: MemoryStore | undefined, memory: readonly MemoryMount[] | undefined) =>
  new JustBashSandbox(store ? { memory: store } : {}).openSession({
    sessionId: `mem-${crypto.randomUUID()}`,
    skills: [],
    ...(memory ? { memory } : {}),
  });

describe("memory mounts in bash sessions", () => {
  it("loads the stores at open; persistMemory saves only what changed under rw mounts", async () => {
    const store = await seeded();
    const s = await open(store, mounts("rw", "ro"));
    expect((await s.exec("cat /mnt/memory/workflow/lessons.md /mnt/memory/org/policy.md")).stdout).toBe(
      "- keep it short\nEscalate outages.\n",
    );
    expect(await s.persistMemory()).toEqual({ saved: [], deleted: [] });
    await s.exec(
      "echo '- cite the ticket id' >> /mnt/memory/workflow/lessons.md && mkdir -p /mnt/memory/workflow/new && echo hi > /mnt/memory/workflow/new/a.md",
    );
    await s.exec("rm -r /mnt/memory/workflow/old");
    expect(await s.persistMemory()).toEqual({
      saved: ["/mnt/memory/workflow/lessons.md", "/mnt/memory/workflow/new/a.md"],
      deleted: ["/mnt/memory/workflow/old/notes.md"],
    });
    expect(await store.load(WF)).toEqual({ "lessons.md": "- keep it short\n- cite the ticket id\n", "new/a.md": "hi\n" });
    expect(await s.persistMemory()).toEqual({ saved: [], deleted: [] });
  });

  it("refuses every write to a ro mount with EROFS (nothing to persist, the store is untouched)", async () => {
    const store = await seeded();
    const s = await open(store, mounts("rw", "ro"));
    for (const command of [
      "echo leak > /mnt/memory/org/secret.md",
      "echo more >> /mnt/memory/org/policy.md",
      "rm /mnt/memory/org/policy.md",
      "mkdir /mnt/memory/org/dir",
      "touch /mnt/memory/org/t.md",
      "cp /mnt/memory/workflow/lessons.md /mnt/memory/org/copied.md",
      "mv /mnt/memory/org/policy.md /mnt/scratch/own/stolen.md",
    ]) {
      const r = await s.exec(command);
      expect(r.exitCode, command).not.toBe(0);
      expect(r.stderr, command).toMatch(/EROFS|read-only/);
    }
    expect((await s.exec("ls /mnt/memory/org")).stdout).toBe("policy.md\n");
    expect(await s.persistMemory()).toEqual({ saved: [], deleted: [] });
    expect(await store.load(ORG)).toEqual({ "policy.md": "Escalate outages.\n" });
  });

  it("a workflow mount in ro and an org mount in rw follow their modes", async () => {
    const store = await seeded();
    const s = await open(store, mounts("ro", "rw"));
    expect((await s.exec("echo x > /mnt/memory/workflow/x.md")).exitCode).not.toBe(0);
    expect((await s.exec("echo shared > /mnt/memory/org/shared.md")).exitCode).toBe(0);
    await s.persistMemory();
    expect(await store.load(ORG)).toEqual({ "policy.md": "Escalate outages.\n", "shared.md": "shared\n" });
    expect(await store.load(WF)).toEqual({ "lessons.md": "- keep it short\n", "old/notes.md": "stale\n" });
  });

  it("two sessions editing different files of one store both keep their edits", async () => {
    const store = await seeded();
    const a = await open(store, mounts("rw", "ro"));
    const b = await open(store, mounts("rw", "ro"));
    await a.exec("echo from-a > /mnt/memory/workflow/a.md");
    await b.exec("echo from-b > /mnt/memory/workflow/b.md");
    await a.persistMemory();
    await b.persistMemory();
    expect(Object.keys(await store.load(WF))).toEqual(["a.md", "b.md", "lessons.md", "old/notes.md"]);
  });

  it("limits a rw mount to the store size, and a file too large for the store is reported, not saved", async () => {
    const store = new MemoryMemoryStore();
    const s = await open(store, mounts("rw", "ro"));
    // seq 1 100000 is 588,895 bytes: twice that passes the store's limit.
    const full = await s.exec(
      "seq 1 100000 > /mnt/memory/workflow/a.md && cat /mnt/memory/workflow/a.md /mnt/memory/workflow/a.md > /mnt/memory/workflow/b.md",
    );
    expect(MAX_MEMORY_STORE_BYTES).toBeLessThan(2 * 588_895);
    expect(full.exitCode).not.toBe(0);
    expect(full.stderr).toMatch(/ENOSPC/);
    const r = await execAndPersist(s, "echo small > /mnt/memory/workflow/small.md");
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/memory not saved: .*a\.md is larger than/);
    expect(await store.load(WF)).toEqual({});
    await s.exec("rm /mnt/memory/workflow/a.md /mnt/memory/workflow/b.md");
    expect((await execAndPersist(s, "true")).stderr).toBe("");
    expect(await store.load(WF)).toEqual({ "small.md": "small\n" });
  });

  it("mounts nothing for an empty list, empty unsaved directories when the caller says nothing, and only under /mnt/memory", async () => {
    const none = await open(new MemoryMemoryStore(), []);
    expect((await none.exec("ls /mnt/memory")).stdout).toBe("");
    const legacy = await open(undefined, undefined);
    expect((await legacy.exec("ls /mnt/memory")).stdout).toBe("org\nworkflow\n");
    expect((await legacy.exec("echo x > /mnt/memory/workflow/x && cat /mnt/memory/workflow/x")).stdout).toBe("x\n");
    expect(await legacy.persistMemory()).toEqual({ saved: [], deleted: [] });
    await expect(open(new MemoryMemoryStore(), [{ path: "/mnt/scratch/own", storeId: WF, mode: "rw" }])).rejects.toThrow(/mnt\/memory/);
  });

  it("mounts an attached store under its id (letters, digits, '.', '_', '-'), never a path that leaves /mnt/memory", async () => {
    const store = new MemoryMemoryStore();
    await store.save("attached:acme:Runbooks.v2", { "outage.md": "Page on-call.\n" });
    const s = await open(store, [{ path: "/mnt/memory/Runbooks.v2", storeId: "attached:acme:Runbooks.v2", mode: "rw" }]);
    expect((await s.exec("cat /mnt/memory/Runbooks.v2/outage.md")).stdout).toBe("Page on-call.\n");
    for (const path of ["/mnt/memory/..", "/mnt/memory/a/b", "/mnt/memory/.hidden", "/mnt/memory/"])
      await expect(open(store, [{ path, storeId: "attached:acme:x", mode: "rw" }]), path).rejects.toThrow(/mnt\/memory/);
  });

  it("persists to D1 and a later session loads it", async () => {
    const store = new D1MemoryStore(env.DB);
    const id = `workflow:mounts.d1.${crypto.randomUUID()}`;
    const memory: MemoryMount[] = [{ path: "/mnt/memory/workflow", storeId: id, mode: "rw" }];
    const first = await open(store, memory);
    await first.exec("printf 'lesson one\\n' > /mnt/memory/workflow/lessons.md");
    await first.persistMemory();
    const second = await open(store, memory);
    expect((await second.exec("cat /mnt/memory/workflow/lessons.md")).stdout).toBe("lesson one\n");
  });
});

describe("memoryMounts (the definition's memory config → mounts)", () => {
  it("maps modes to store ids workflow:<tenant>:<id> and org:<tenant>; none mounts nothing", () => {
    expect(memoryMounts({ workflow: "rw", org: "ro" }, { workflowId: "support.triage", tenant: "acme" })).toEqual([
      { path: "/mnt/memory/workflow", storeId: "workflow:acme:support.triage", mode: "rw" },
      { path: "/mnt/memory/org", storeId: "org:acme", mode: "ro" },
    ]);
    expect(memoryMounts({ workflow: "none", org: "rw" }, { workflowId: "w", tenant: "t" })).toEqual([
      { path: "/mnt/memory/org", storeId: "org:t", mode: "rw" },
    ]);
    expect(memoryMounts({ workflow: "none", org: "none" }, { workflowId: "w", tenant: "t" })).toEqual([]);
  });
});
