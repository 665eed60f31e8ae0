import { Bash } from "just-bash";
import { describe, expect, it } from "vitest";
import { MemoryMemoryStore } from "../../../src/adapters/memory/memory-memory-store.ts";
import { CODE_ENV, CODE_INPUT, CODE_RUNNER } from "../../../src/adapters/sandbox-container/code-runner-source.ts";
import { NO_INTERNET } from "../../../src/adapters/sandbox-container/container-code-run.ts";
import { HELPER_SH } from "../../../src/adapters/sandbox-container/container-layout.ts";
import { ContainerSandbox, sandboxId } from "../../../src/adapters/sandbox-container/container-sandbox.ts";
import { HELPER_SH_SOURCE } from "../../../src/adapters/sandbox-container/helper-scripts.ts";
import { shellQuote } from "../../../src/adapters/sandbox-container/shell-quote.ts";
import { digestText } from "../../../src/json/digest.ts";
import type { RunCodeRequest } from "../../../src/ports/sandbox.ts";
import { type CodeCall, FakeContainer, framed, parseQuotedWords } from "./support/fake-container.ts";

const DENY = { network: "deny", env: "deny", fs: "deny" } as const;
const file = (content: string) => ({ content, sha256: digestText(content) });
const NASTY = `it's "$(touch /tmp/pwned)" \`id\`; rm -rf / & echo $HOME\n'\\'' | tee`;

/** A sandbox over fakes, one fake per sandbox id, with counting ids. */
function setup(memory = new MemoryMemoryStore()) {
  const containers = new Map<string, FakeContainer>();
  let n = 0;
  const sandbox = new ContainerSandbox({
    open: (id) => {
      const fake = containers.get(id) ?? new FakeContainer();
      containers.set(id, fake);
      return fake;
    },
    memory,
    scope: "run_1",
    newId: () => `id${++n}`,
  });
  const container = (name: string) => containers.get(sandboxId("run_1", name)) as FakeContainer;
  return { sandbox, memory, containers, container };
}

const request = (over: Partial<RunCodeRequest> = {}): RunCodeRequest => ({
  files: { "m.ts": file("export function run({ input }: { input: { n: number } }) { return { twice: input.n * 2 }; }") },
  entrypoint: "m.ts",
  input: { n: 4 },
  policy: DENY,
  ...over,
});

const answer = (exit: number, result?: unknown, output = "") => framed(exit, result === undefined ? "" : JSON.stringify(result), output);

describe("shellQuote", () => {
  it("round-trips any text through a bash parser as one word", async () => {
    const bash = new Bash();
    for (const text of [NASTY, "", "'", "''", "a b", "$(id)", "ünïcødé ✓", "line1\nline2"]) {
      const r = await bash.exec(`printf '%s' ${shellQuote(text)}`);
      expect(r.stdout).toBe(text);
      expect(parseQuotedWords(`${shellQuote(text)} ${shellQuote("x")}`)).toEqual([text, "x"]);
    }
  });
});

describe("ContainerSandbox bash sessions (over a fake @cloudflare/sandbox client)", () => {
  it("one container per session, lazily laid out; every command is the helper with quoted words", async () => {
    const { sandbox, containers, container } = setup();
    const a = await sandbox.openSession({ sessionId: "planner:c1", skills: [] });
    const b = await sandbox.openSession({ sessionId: "fixer:s/a1", skills: [] });
    expect(containers.size).toBe(2);
    expect(container("session\nplanner:c1").commands).toEqual([]);
    const r = await a.exec(`printf '%s' ${shellQuote(NASTY)} > out.txt && cat out.txt`);
    expect(r).toEqual({ exitCode: 0, stdout: NASTY, stderr: "" });
    const fake = container("session\nplanner:c1");
    const helperCalls = fake.commands.filter((c) => !c.startsWith("mkdir "));
    for (const command of helperCalls) expect(() => parseQuotedWords(command)).not.toThrow();
    // The script reached the helper as one argument, byte for byte.
    const execWords = parseQuotedWords(helperCalls.find((c) => parseQuotedWords(c)[2] === "exec") ?? "");
    expect(execWords.slice(2)).toEqual(["exec", "30", `printf '%s' ${shellQuote(NASTY)} > out.txt && cat out.txt`]);
    // The other session's container saw nothing.
    expect(container("session\nfixer:s/a1").commands).toEqual([]);
    expect(await b.snapshotScratch()).toEqual({});
    expect(sandboxId("run_1", "session\nplanner:c1")).toMatch(/^lw-[0-9a-f]{40}$/);
  });

  it("restores scratch and skills, snapshots what the session wrote (skills and .keep left out), round trip", async () => {
    const { sandbox, container } = setup();
    const scratch = { "notes/plan.md": "step one\n", "weird $(name) 'q'.txt": "odd\n" };
    const first = await sandbox.openSession({
      sessionId: "s1",
      skills: [{ name: "triage", description: "How we grade", body: "Grade high when money is lost." }],
      scratch,
    });
    expect(await first.snapshotScratch()).toEqual(scratch);
    expect((await first.exec("cat .agents/skills/triage/SKILL.md")).stdout).toContain("Grade high when money is lost.");
    await first.exec("mkdir -p out && echo done > out/result.txt && touch .keep && rm notes/plan.md");
    const snapshot = await first.snapshotScratch();
    expect(snapshot).toEqual({ "out/result.txt": "done\n", "weird $(name) 'q'.txt": "odd\n" });
    expect(container("session\ns1").modes.get("/mnt/scratch/own")).toBe("rw");

    // A resumed session (same id) gets exactly the snapshot back, whatever the container still held.
    await first.exec("echo stale > stale.txt");
    const resumed = await sandbox.openSession({ sessionId: "s1", skills: [], scratch: snapshot });
    expect((await resumed.exec("ls -A")).stdout.split("\n").filter(Boolean).sort()).toEqual(["out", "weird $(name) 'q'.txt"]);
    expect(await resumed.snapshotScratch()).toEqual(snapshot);
  });

  it("reads and writes files by relative or absolute path; a missing file is null", async () => {
    const { sandbox } = setup();
    const session = await sandbox.openSession({ sessionId: "s2", skills: [] });
    await session.writeFile("drafts/x.json", '{"a":1}');
    await session.writeFile("/mnt/scratch/own/y.txt", NASTY);
    expect(await session.readFile("/mnt/scratch/own/drafts/x.json")).toBe('{"a":1}');
    expect(await session.readFile("y.txt")).toBe(NASTY);
    expect(await session.readFile("missing.txt")).toBeNull();
    expect((await session.exec("cat drafts/x.json")).stdout).toBe('{"a":1}');
  });

  it("maps failures: exit code and stderr pass through, the SDK's timeout is 124, other SDK failures 1", async () => {
    const { sandbox, container } = setup();
    const session = await sandbox.openSession({ sessionId: "s3", skills: [] });
    const missing = await session.exec("cat missing.txt");
    expect(missing.exitCode).not.toBe(0);
    expect(missing.stderr).toMatch(/missing\.txt/);
    const fake = container("session\ns3");
    fake.failNext = new Error("Request timed out after 45000ms");
    expect(await session.exec("sleep 100", { timeoutMs: 2_000 })).toMatchObject({ exitCode: 124, stdout: "" });
    fake.failNext = new Error("Container is not running");
    const down = await session.exec("true");
    expect(down.exitCode).toBe(1);
    expect(down.stderr).toMatch(/container sandbox failed: Container is not running/);
    // The helper got the caller's limit in seconds (rounded up) and the SDK a larger backstop.
    await session.exec("true", { timeoutMs: 1_500 });
    expect(parseQuotedWords(fake.commands.at(-1) ?? "").slice(2, 4)).toEqual(["exec", "2"]);
  });

  it("clips huge output like the isolate sandbox", async () => {
    const { sandbox } = setup();
    const session = await sandbox.openSession({ sessionId: "s4", skills: [] });
    const r = await session.exec("seq 1 20000");
    expect(r.stdout.length).toBeLessThan(70 * 1024);
    expect(r.stdout).toMatch(/\[output truncated at 65536 characters\]$/);
  });

  it("loads memory from the store, saves rw changes, lays ro mounts out as root's", async () => {
    const { sandbox, memory, container } = setup();
    await memory.save("org:acme", { "policy.md": "be kind\n" });
    await memory.save("workflow:acme:w", { "old.md": "old\n", "keep.md": "keep\n" });
    const session = await sandbox.openSession({
      sessionId: "s5",
      skills: [],
      memory: [
        { path: "/mnt/memory/workflow", storeId: "workflow:acme:w", mode: "rw" },
        { path: "/mnt/memory/org", storeId: "org:acme", mode: "ro" },
      ],
    });
    expect(await session.persistMemory()).toEqual({ saved: [], deleted: [] });
    expect((await session.exec("cat /mnt/memory/org/policy.md")).stdout).toBe("be kind\n");
    await session.exec("echo lesson > /mnt/memory/workflow/lessons.md && rm /mnt/memory/workflow/old.md");
    expect(await session.persistMemory()).toEqual({ saved: ["/mnt/memory/workflow/lessons.md"], deleted: ["/mnt/memory/workflow/old.md"] });
    expect(await memory.load("workflow:acme:w")).toEqual({ "keep.md": "keep\n", "lessons.md": "lesson\n" });
    // Nothing changed since: nothing is written again.
    expect(await session.persistMemory()).toEqual({ saved: [], deleted: [] });
    const fake = container("session\ns5");
    expect(fake.modes.get("/mnt/memory/org")).toBe("ro");
    expect(fake.modes.get("/mnt/memory/workflow")).toBe("rw");
    await expect(
      sandbox.openSession({ sessionId: "s6", skills: [], memory: [{ path: "/etc", storeId: "x", mode: "rw" }] }),
    ).rejects.toThrow(/under \/mnt\/memory/);
  });
});

describe("ContainerSandbox after a container restart (fresh disk)", () => {
  it("reinstalls the helper and lays the session out again from its last snapshot and the stores", async () => {
    const { sandbox, memory, container } = setup();
    const session = await sandbox.openSession({
      sessionId: "r1",
      skills: [],
      scratch: { "old.txt": "old\n" },
      memory: [{ path: "/mnt/memory/workflow", storeId: "workflow:acme:w", mode: "rw" }],
    });
    await session.exec("echo kept > kept.txt && echo lesson > /mnt/memory/workflow/l.md");
    await session.persistMemory();
    expect(await memory.load("workflow:acme:w")).toEqual({ "l.md": "lesson\n" });
    expect(await session.snapshotScratch()).toEqual({ "kept.txt": "kept\n", "old.txt": "old\n" });
    await session.exec("echo lost > lost.txt");
    await container("session\nr1").restart();
    const r = await session.exec("ls && cat /mnt/memory/workflow/l.md");
    expect(r).toEqual({ exitCode: 0, stdout: "kept.txt\nold.txt\nlesson\n", stderr: "" });
    // A new session on the restarted container notices it while laying out.
    await container("session\nr1").restart();
    const reopened = await sandbox.openSession({ sessionId: "r1", skills: [], scratch: { "again.txt": "x" } });
    expect((await reopened.exec("ls")).stdout).toBe("again.txt\n");
    // Installed three times: first use, after the restart seen by exec, after the one seen by layout.
    expect(container("session\nr1").writes.filter((path) => path === HELPER_SH)).toHaveLength(3);
    await sandbox.runCode(request()); // opens the code container
    await container("code").restart();
    container("code").onCode = () => answer(0, { ok: true, output: 1, logs: [] });
    expect(await sandbox.runCode(request())).toMatchObject({ ok: true, output: 1 });
  });
});

describe("ContainerSandbox code.run (over a fake @cloudflare/sandbox client)", () => {
  it("stages stripped code, the runner and the input as files; nothing of the input is on a command line", async () => {
    const { sandbox, container } = setup();
    const result = await sandbox.runCode(request({ input: { text: NASTY }, limits: { wallMs: 2_500, cpuMs: 900 } }));
    expect(result).toMatchObject({ ok: false, error: { code: "code_load_failed" } }); // the fake's default answer: no result
    const fake = container("code");
    const [call] = fake.codeCalls as [CodeCall];
    expect(Object.keys(call.files).sort()).toEqual([CODE_INPUT, CODE_RUNNER, "m.ts"]);
    expect(JSON.parse(call.files[CODE_INPUT] ?? "")).toEqual({ text: NASTY });
    expect(call.files["m.ts"]).not.toContain(": { input: { n: number } }");
    expect(call.files[CODE_RUNNER]).toContain('import("./m.ts")');
    expect(call).toMatchObject({ dir: "/tmp/little-code/id1", wallS: 3, cpuS: 1, heapMb: 256, fs: "deny", env: "deny" });
    for (const command of fake.commands) {
      expect(command).not.toContain("pwned");
      if (!command.startsWith("mkdir ")) expect(() => parseQuotedWords(command)).not.toThrow();
    }
  });

  it("refuses a tampered file, a bad name or a missing entrypoint before anything reaches the container", async () => {
    const { sandbox, containers } = setup();
    const tampered = await sandbox.runCode(
      request({ files: { "m.js": { content: "export function run() { return 1 }", sha256: digestText("other") } }, entrypoint: "m.js" }),
    );
    expect(tampered).toMatchObject({ ok: false, error: { code: "code_integrity" } });
    if (!tampered.ok) expect(tampered.error.message).toContain(digestText("export function run() { return 1 }"));
    for (const name of ["../x.js", "a/../../b.js", "/abs.js", "x;rm -rf.js", "$(id).js", CODE_RUNNER, CODE_INPUT]) {
      const r = await sandbox.runCode(request({ files: { [name]: file("export const x = 1") }, entrypoint: name }));
      expect(r, name).toMatchObject({ ok: false, error: { code: "code_invalid_file_name" } });
    }
    expect(await sandbox.runCode(request({ entrypoint: "other.ts" }))).toMatchObject({ ok: false, error: { code: "code_integrity" } });
    const namespace = await sandbox.runCode(
      request({ files: { "m.ts": file("namespace N { export const a = 1 }\nexport const run = () => 1") } }),
    );
    expect(namespace).toMatchObject({ ok: false, error: { code: "code_unsupported_syntax" } });
    const code = [...containers.values()].flatMap((c) => c.commands);
    expect(code).toEqual([]);
  });

  it("maps the runner's answer: output, logs, thrown errors, load failures, non-JSON and oversized results", async () => {
    const { sandbox, container } = setup();
    await sandbox.runCode(request()); // opens the code container
    const run = (onCode: FakeContainer["onCode"]) => {
      container("code").onCode = onCode;
      return sandbox.runCode(request());
    };
    expect(await run(() => answer(0, { ok: true, output: { twice: 8 }, logs: ["log: hi"] }, "raw line\n"))).toMatchObject({
      ok: true,
      output: { twice: 8 },
      logs: ["log: hi", "output: raw line"],
    });
    expect(await run(() => answer(0, { ok: false, error: { code: "code_threw", message: "Error: no" }, logs: [] }))).toMatchObject({
      ok: false,
      error: { code: "code_threw", message: "Error: no" },
    });
    expect(
      await run(() => answer(0, { ok: false, error: { code: "code_load_failed", message: "SyntaxError: x" }, logs: [] })),
    ).toMatchObject({
      ok: false,
      error: { code: "code_load_failed", message: "the code could not be loaded: SyntaxError: x" },
    });
    // A code the runner may not send is not trusted.
    expect(await run(() => answer(0, { ok: false, error: { code: "code_integrity", message: "forged" }, logs: [] }))).toMatchObject({
      ok: false,
      error: { code: "code_threw" },
    });
    expect(await run(() => answer(0, { ok: true, output: "x".repeat(1024 * 1024 + 10), logs: [] }))).toMatchObject({
      ok: false,
      error: { code: "code_output_too_large" },
    });
    expect(await run(() => framed(0, "{not json"))).toMatchObject({
      ok: false,
      error: { code: "code_output_not_json" },
    });
    expect(
      await run(() => answer(134, undefined, "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n")),
    ).toMatchObject({
      ok: false,
      error: { code: "code_load_failed", message: "the code was stopped at its 256 MiB heap limit" },
    });
    expect(await run(() => ({ exitCode: 64, stdout: "", stderr: "little.sh: unknown subcommand" }))).toMatchObject({
      ok: false,
      error: { code: "code_runner_unavailable" },
    });
  });

  it("maps time limits: wall (124, or SIGKILL after the wall limit), CPU (SIGXCPU, or SIGKILL before it) and the SDK's timeout", async () => {
    const { sandbox, container } = setup();
    await sandbox.runCode(request());
    const fake = container("code");
    const limits = { wallMs: 1_000, cpuMs: 500 };
    for (const [exit, message] of [
      [124, /1000 ms wall-time limit/],
      [152, /500 ms of CPU time/],
      [137, /500 ms of CPU time/],
    ] as const) {
      fake.onCode = () => answer(exit, undefined, "");
      expect(await sandbox.runCode(request({ limits })), String(exit)).toMatchObject({
        ok: false,
        error: { code: "code_timeout", message },
      });
    }
    fake.onCode = async () => {
      await new Promise((resolve) => setTimeout(resolve, 80));
      return answer(137, undefined, "");
    };
    expect(await sandbox.runCode(request({ limits: { wallMs: 50, cpuMs: 500 } }))).toMatchObject({
      ok: false,
      error: { code: "code_timeout", message: /50 ms wall-time limit/ },
    });
    fake.onCode = () => {
      throw new Error("Request timed out");
    };
    expect(await sandbox.runCode(request())).toMatchObject({ ok: false, error: { code: "code_timeout" } });
    fake.onCode = () => {
      throw new Error("Container failed to start");
    };
    expect(await sandbox.runCode(request())).toMatchObject({ ok: false, error: { code: "code_runner_unavailable" } });
  });

  it("small code travels inline with the command (one SDK call), large code is staged first; both arrive whole", async () => {
    const { sandbox, container } = setup();
    await sandbox.runCode(request());
    const fake = container("code");
    const writes = fake.writes.length;
    await sandbox.runCode(request());
    expect(fake.codeCalls.at(-1)).toMatchObject({ inline: true });
    expect(fake.writes.length).toBe(writes);
    const big = `export const s = ${JSON.stringify("é".repeat(70_000))};\nexport function run() { return 1; }`;
    await sandbox.runCode(request({ files: { "m.ts": file(big) } }));
    expect(fake.codeCalls.at(-1)).toMatchObject({ inline: false, files: { "m.ts": big } });
    expect(fake.writes.length).toBe(writes + 1);
  });

  it("passes the policy's fs and env choices to the helper; a network allowance is logged as unavailable", async () => {
    const { sandbox, container } = setup();
    await sandbox.runCode(request({ policy: { network: "deny", env: "allow", fs: "allow" } }));
    expect(container("code").codeCalls.at(-1)).toMatchObject({ fs: "allow", env: "allow" });
    const allowed = await sandbox.runCode(
      request({ policy: { network: "allow", env: "deny", fs: "deny" }, networkHosts: ["api.example.com"] }),
    );
    expect(allowed.logs[0]).toBe(NO_INTERNET);
  });

  it('env: "allow" stages only the declared variables as a file for run({ input, env }); the helper never passes the container\'s environment', async () => {
    const { sandbox, container } = setup();
    await sandbox.runCode(request({ policy: { network: "deny", env: "allow", fs: "deny" }, env: { API_KEY: "k-123" } }));
    const allowed = container("code").codeCalls.at(-1) as CodeCall;
    expect(JSON.parse(allowed.files[CODE_ENV] ?? "null")).toEqual({ API_KEY: "k-123" });
    expect(allowed.files[CODE_RUNNER]).toContain("{ input, env }");
    await sandbox.runCode(request({ env: { API_KEY: "k-123" } }));
    expect(Object.keys((container("code").codeCalls.at(-1) as CodeCall).files)).not.toContain(CODE_ENV);
    // One environment line for every policy: env -i, nothing inherited.
    expect(HELPER_SH_SOURCE.match(/envv=\(.*\)/g)).toEqual(['envv=(-i PATH=$PATH_USER HOME="$dir/tmp" LANG=C.UTF-8)']);
    expect(await sandbox.runCode(request({ files: { [CODE_ENV]: file("x") }, entrypoint: CODE_ENV }))).toMatchObject({ ok: false });
  });
});
