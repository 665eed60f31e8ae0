import { describe, expect, it } from "vitest";
import { MemoryMemoryStore } from "../../src/adapters/memory/memory-memory-store.ts";
import { digestText } from "../../src/json/digest.ts";
import type { MemoryStore } from "../../src/ports/memory-store.ts";
import type { Sandbox } from "../../src/ports/sandbox.ts";

const DENY = { network: "deny", env: "deny", fs: "deny" } as const;
const file = (content: string) => ({ content, sha256: digestText(content) });

/**
 * The contract every Sandbox adapter keeps: bash sessions in /mnt/scratch/own whose files persist
 * across calls and restore into a new session, skills mounted, memory mounts (rw saved, ro refused),
 * and runCode that verifies digests, runs `run({ input })`, denies network, and reports failures
 * with stable codes instead of throwing.
 */
export function sandboxContract(name: string, make: (memory: MemoryStore) => Sandbox | null, skipReason?: string): void {
  const suite = skipReason ? describe.skip : describe;
  if (skipReason) console.log(`sandbox contract: ${name} skipped — ${skipReason}`);
  suite(`Sandbox contract: ${name}`, () => {
    const fresh = () => {
      const memory = new MemoryMemoryStore();
      return { memory, sandbox: make(memory) as Sandbox };
    };

    it("bash starts in /mnt/scratch/own and keeps files across calls", async () => {
      const session = await fresh().sandbox.openSession({ sessionId: "contract-1", skills: [] });
      expect((await session.exec("pwd")).stdout.trim()).toBe("/mnt/scratch/own");
      await session.exec("mkdir -p notes && echo hello > notes/a.txt");
      expect(await session.exec("cat notes/a.txt")).toMatchObject({ exitCode: 0, stdout: "hello\n" });
      expect(await session.snapshotScratch()).toMatchObject({ "notes/a.txt": "hello\n" });
    });

    it("restores scratch into a new session and mounts skills", async () => {
      const session = await fresh().sandbox.openSession({
        sessionId: "contract-2",
        skills: [{ name: "triage", description: "How we grade", body: "Grade high when money is lost." }],
        scratch: { "drafts/x.json": '{"a":1}' },
      });
      expect((await session.exec("cat drafts/x.json")).stdout).toBe('{"a":1}');
      expect((await session.exec("cat .agents/skills/triage/SKILL.md")).stdout).toContain("Grade high when money is lost.");
    });

    it("a failing command reports its exit code and stderr", async () => {
      const session = await fresh().sandbox.openSession({ sessionId: "contract-3", skills: [] });
      const r = await session.exec("cat missing.txt");
      expect(r.exitCode).not.toBe(0);
      expect(r.stderr).toMatch(/missing\.txt/);
    });

    it("saves rw memory and refuses writes to ro memory", async () => {
      const { memory, sandbox } = fresh();
      await memory.save("org:acme", { "policy.md": "be kind\n" });
      const session = await sandbox.openSession({
        sessionId: "contract-4",
        skills: [],
        memory: [
          { path: "/mnt/memory/workflow", storeId: "workflow:acme:w", mode: "rw" },
          { path: "/mnt/memory/org", storeId: "org:acme", mode: "ro" },
        ],
      });
      expect((await session.exec("cat /mnt/memory/org/policy.md")).stdout).toBe("be kind\n");
      await session.exec("echo lesson > /mnt/memory/workflow/lessons.md");
      expect((await session.exec("(echo x > /mnt/memory/org/policy.md)")).exitCode).not.toBe(0);
      await session.persistMemory();
      expect(await memory.load("workflow:acme:w")).toEqual({ "lessons.md": "lesson\n" });
      expect(await memory.load("org:acme")).toEqual({ "policy.md": "be kind\n" });
    });

    it("runs code: the output of run({ input }), digests verified, network denied, failures as codes", async () => {
      const { sandbox } = fresh();
      const ok = await sandbox.runCode({
        files: { "m.ts": file("export function run({ input }: { input: { n: number } }) { return { twice: input.n * 2 }; }") },
        entrypoint: "m.ts",
        input: { n: 4 },
        policy: DENY,
      });
      expect(ok).toMatchObject({ ok: true, output: { twice: 8 } });
      const tampered = await sandbox.runCode({
        files: { "m.js": { content: "export function run() { return 1 }", sha256: digestText("other") } },
        entrypoint: "m.js",
        input: {},
        policy: DENY,
      });
      expect(tampered).toMatchObject({ ok: false, error: { code: "code_integrity" } });
      const net = await sandbox.runCode({
        files: { "m.js": file('export async function run() { await fetch("https://example.com/"); return 1 }') },
        entrypoint: "m.js",
        input: {},
        policy: DENY,
      });
      expect(net.ok).toBe(false);
      const threw = await sandbox.runCode({
        files: { "m.js": file("export function run() { throw new Error('no') }") },
        entrypoint: "m.js",
        input: {},
        policy: DENY,
      });
      expect(threw).toMatchObject({ ok: false, error: { code: "code_threw" } });
    });

    it("bash output keeps its bytes: trailing newlines, \\r\\n, NUL, invalid UTF-8 (the latin1 view), stderr, readFile", async () => {
      const session = await fresh().sandbox.openSession({ sessionId: "contract-bytes", skills: [] });
      for (const [script, stdout] of BYTE_CASES) expect(await session.exec(script), script).toMatchObject({ exitCode: 0, stdout });
      expect(await session.exec("printf 'e\\n\\n' >&2; exit 3")).toEqual({ exitCode: 3, stdout: "", stderr: "e\n\n" });
      await session.exec("printf 'k\\r\\n\\n' > k.txt");
      expect(await session.readFile("k.txt")).toBe("k\r\n\n");
    });

    it("code.run's printed output keeps its bytes: console lines with trailing newlines, \\r\\n and NUL", async () => {
      const r = await fresh().sandbox.runCode({
        files: {
          "m.js": file('export function run() { console.log("a\\n"); console.log("b\\r\\n"); console.warn("x\\u0000y"); return "z\\n"; }'),
        },
        entrypoint: "m.js",
        input: {},
        policy: DENY,
      });
      expect(r).toMatchObject({ ok: true, output: "z\n", logs: ["log: a\n", "log: b\r\n", "warn: x\u0000y"] });
    });
  });
}

/** Scripts and the stdout every adapter answers for them, byte for byte (docs/sandbox.md, "Output bytes"). */
const BYTE_CASES: readonly (readonly [string, string])[] = [
  ["printf 'hello\\n'", "hello\n"],
  ["printf 'a\\r\\nb\\r\\n'", "a\r\nb\r\n"],
  ["printf 'x\\0y\\n'", "x\u0000y\n"],
  ["printf '\\n\\n\\n'", "\n\n\n"],
  ["printf 'caf\\xc3\\xa9\\n'", "caf\u00e9\n"],
  ["printf 'x\\xffy'", "x\u00ffy"],
  ["printf ''", ""],
];
