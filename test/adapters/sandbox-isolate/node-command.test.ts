import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { JustBashSandbox } from "../../../src/adapters/sandbox-isolate/just-bash-sandbox.ts";
import { parseNodeArgs } from "../../../src/adapters/sandbox-isolate/node-command.ts";
import type { SandboxSession } from "../../../src/ports/sandbox.ts";

const open = (options: { nodeWallMs?: number; loader?: boolean } = {}): Promise<SandboxSession> =>
  new JustBashSandbox({
    ...(options.loader === false ? {} : { loader: env.LOADER }),
    ...(options.nodeWallMs ? { nodeWallMs: options.nodeWallMs } : {}),
  }).openSession({ sessionId: `node-${crypto.randomUUID()}`, skills: [] });

describe("node in bash sessions (Worker Loader isolates)", () => {
  it("runs -e code; its stdout flows through a pipe", async () => {
    const s = await open();
    expect(await s.exec(`node -e 'console.log([1, 2, 3].join(","))' | tr , -`)).toEqual({ exitCode: 0, stdout: "1-2-3\n", stderr: "" });
  });

  it("separates stdout and stderr; process.stdout.write writes without a newline; values print the Node way", async () => {
    const s = await open();
    const r = await s.exec(
      `node -e 'process.stdout.write("a"); process.stdout.write("b\\n"); console.error("warned", 2); console.log({ n: 1, s: "x", l: [1, "y"] }, null, undefined)'`,
    );
    expect(r).toEqual({ exitCode: 0, stdout: "ab\n{ n: 1, s: 'x', l: [ 1, 'y' ] } null undefined\n", stderr: "warned 2\n" });
  });

  it("an uncaught throw exits 1 with the error on stderr, keeping what was printed before", async () => {
    const s = await open();
    const r = await s.exec(`node -e 'console.log("before"); throw new TypeError("boom")'`);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe("before\n");
    expect(r.stderr).toMatch(/TypeError: boom/);
    expect((await s.exec(`node -e 'throw new Error("x")' || echo "failed as expected"`)).stdout).toBe("failed as expected\n");
  });

  it("runs a file of the session, with arguments, TypeScript and relative imports", async () => {
    const s = await open();
    await s.writeFile("lib/util.ts", "export const double = (n: number): number => n * 2;\n");
    await s.writeFile(
      "lib/main.ts",
      'import { double } from "./util.ts";\nconst n: number = Number(process.argv[2]);\nconsole.log(double(n), process.argv.length);\n',
    );
    expect(await s.exec("node lib/main.ts 21 extra")).toEqual({ exitCode: 0, stdout: "42 4\n", stderr: "" });
    expect(await s.exec("cd lib && node ./main.ts 5")).toMatchObject({ exitCode: 0, stdout: "10 3\n" });
  });

  it("process.exit(n) sets the exit code; -p prints an expression; a piped script runs", async () => {
    const s = await open();
    const exit = await s.exec(`node -e 'console.log("out"); process.exit(3); console.log("never")'`);
    expect(exit).toEqual({ exitCode: 3, stdout: "out\n", stderr: "" });
    expect((await s.exec("node -p '6 * 7'")).stdout).toBe("42\n");
    expect(await s.exec("echo 'console.log(7)' | node")).toEqual({ exitCode: 0, stdout: "7\n", stderr: "" });
  });

  it("reads stdin through process.stdin", async () => {
    const s = await open();
    const r = await s.exec(
      `echo '{"a": 21}' | node -e 'let t = ""; process.stdin.on("data", (d) => (t += d)).on("end", () => console.log(JSON.parse(t).a * 2))'`,
    );
    expect(r).toEqual({ exitCode: 0, stdout: "42\n", stderr: "" });
  });

  it("waits for pending timers, as Node waits for its event loop; errors in callbacks and rejections exit 1", async () => {
    const s = await open();
    expect((await s.exec(`node -e 'setTimeout(() => console.log("later"), 20); console.log("now")'`)).stdout).toBe("now\nlater\n");
    expect(
      (
        await s.exec(
          `node -e 'const t = setInterval(() => { console.log("tick"); if (++globalThis.n >= 3) clearInterval(t); }, 5); globalThis.n = 0'`,
        )
      ).stdout,
    ).toBe("tick\ntick\ntick\n");
    const inTimer = await s.exec(`node -e 'setTimeout(() => { throw new Error("late") }, 5)'`);
    expect(inTimer.exitCode).toBe(1);
    expect(inTimer.stderr).toMatch(/Error: late/);
    const rejected = await s.exec(`node -e 'Promise.reject(new RangeError("nobody caught me"))'`);
    expect(rejected.exitCode).toBe(1);
    expect(rejected.stderr).toMatch(/RangeError: nobody caught me/);
    expect(await s.exec(`node -e 'const v = await Promise.resolve(5); console.log(v)'`)).toMatchObject({ exitCode: 0, stdout: "5\n" });
  });

  it("reports a syntax error, a missing file and a bad option", async () => {
    const s = await open();
    const syntax = await s.exec(`node -e 'let x = ;'`);
    expect(syntax.exitCode).toBe(1);
    expect(syntax.stderr).toMatch(/SyntaxError|Unexpected/);
    const missing = await s.exec("node nope.js");
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toMatch(/Cannot find module '\/mnt\/scratch\/own\/nope\.js'/);
    expect(await s.exec("node --inspect x.js")).toMatchObject({ exitCode: 9, stderr: "node: bad option: --inspect\n" });
    expect((await s.exec("node -v")).stdout).toMatch(/^v24/);
  });

  it("without a Worker Loader, node says so on stderr and exits 127", async () => {
    const s = await open({ loader: false });
    const r = await s.exec(`node -e 'console.log(1)'`);
    expect(r.exitCode).toBe(127);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/node: not available in this sandbox.*Worker Loader/);
  });

  it("stops an endless async loop at the wall-time limit (exit 124), and the next run works", async () => {
    const s = await open({ nodeWallMs: 300 });
    const started = Date.now();
    const r = await s.exec(`node -e 'for (;;) await new Promise((r) => setTimeout(r, 5))'`);
    expect(r.exitCode).toBe(124);
    expect(r.stderr).toMatch(/300 ms.*wall-time limit/);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await s.exec(`node -e 'console.log("fine")'`)).toMatchObject({ exitCode: 0, stdout: "fine\n" });
  });

  it("clips oversized output", async () => {
    const s = await open();
    const r = await s.exec(`node -e 'for (let i = 0; i < 40; i++) console.log("x".repeat(10000))'`);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.length).toBeLessThan(70_000);
    expect(r.stdout).toMatch(/output truncated/);
  });
});

describe("parseNodeArgs", () => {
  it.each([
    [["-e", "1"], { kind: "eval", code: "1", print: false, args: [] }],
    [["--print", "1", "a"], { kind: "eval", code: "1", print: true, args: ["a"] }],
    [["--input-type=module", "x.js", "-e"], { kind: "file", path: "x.js", args: ["-e"] }],
    [["-"], { kind: "stdin", args: [] }],
    [[], { kind: "stdin", args: [] }],
    [["-e"], { kind: "error", text: "node: -e requires an argument\n", exitCode: 9 }],
  ])("%j", (args, expected) => {
    expect(parseNodeArgs(args)).toEqual(expected);
  });
});
