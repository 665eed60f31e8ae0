import { Bash, InMemoryFs } from "just-bash";
import type { ContainerClient } from "../../../../src/adapters/sandbox-container/container-client.ts";
import { HELPER_SH, STAGE_DIR } from "../../../../src/adapters/sandbox-container/container-layout.ts";
import { FRAME_TAG } from "../../../../src/adapters/sandbox-container/output-frame.ts";
import { SCRATCH_DIR } from "../../../../src/ports/sandbox.ts";

type Answer = { exitCode: number; stdout: string; stderr: string };

/** What the helper prints for a command that ran (output-frame.ts): the exit code and both outputs, base64. */
export function framed(exit: number, stdout: string, stderr = ""): Answer {
  const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
  return { exitCode: 0, stdout: `${FRAME_TAG} ${exit} ${b64(stdout)} ${b64(stderr)}\n`, stderr: "" };
}

/** What a `code` subcommand received: its arguments, and the files the adapter staged for it. */
export type CodeCall = {
  readonly dir: string;
  readonly wallS: number;
  readonly cpuS: number;
  readonly heapMb: number;
  readonly fs: string;
  readonly env: string;
  readonly maxResultBytes: number;
  readonly files: Readonly<Record<string, string>>;
  /** Whether the spec came inline on the command line (small code) or as a staged file. */
  readonly inline: boolean;
};

/**
 * A fake of the two calls the container adapter makes on a `@cloudflare/sandbox` stub. It accepts
 * only the command lines the adapter is meant to send — the layout command, or `bash little.sh`
 * followed by single-quoted words — and fails the test on anything else, so a word that escaped
 * its quotes shows up here. Its filesystem is just-bash's in-memory one and `exec` scripts really
 * run in just-bash (a bash interpreter, no processes), so sessions behave like bash; `code` runs
 * are answered by {@link onCode}, since there is no `node` here.
 */
export class FakeContainer implements ContainerClient {
  readonly fs = new InMemoryFs();
  readonly commands: string[] = [];
  readonly writes: string[] = [];
  readonly codeCalls: CodeCall[] = [];
  /** The mode each laid-out tree got (`rw` trees are handed to the sandbox user). */
  readonly modes = new Map<string, string>();
  /** The answer of the next `code` run: by default exit code 1 and no result. */
  onCode: (call: CodeCall) => Answer | Promise<Answer> = () => framed(1, "");
  /** Makes the next SDK call throw (e.g. a timeout of the SDK itself, or an unavailable container). */
  failNext: Error | null = null;
  private readonly bash = new Bash({ fs: this.fs, cwd: "/" });

  async writeFile(path: string, content: string): Promise<unknown> {
    this.writes.push(path);
    await this.fs.writeFile(path, content);
    return { success: true, path };
  }

  async exec(command: string, options: { cwd?: string; timeout?: number }): Promise<Answer> {
    this.commands.push(command);
    if (this.failNext) {
      const error = this.failNext;
      this.failNext = null;
      throw error;
    }
    if (command.startsWith(`mkdir -p ${STAGE_DIR} `)) return { exitCode: 0, stdout: "", stderr: "" };
    const words = parseQuotedWords(command);
    if (words[0] !== "bash" || words[1] !== HELPER_SH) throw new Error(`unexpected command: ${command}`);
    if (typeof options.timeout !== "number") throw new Error("every helper call carries an SDK timeout");
    if (!(await this.fs.exists(HELPER_SH))) return { exitCode: 127, stdout: "", stderr: `bash: ${HELPER_SH}: No such file or directory\n` };
    const [subcommand, ...args] = words.slice(2);
    switch (subcommand) {
      case "exec": {
        const r = await this.bash.exec(args[1] ?? "", { cwd: SCRATCH_DIR });
        return framed(r.exitCode, r.stdout, r.stderr);
      }
      case "read":
        return (await this.fs.exists(args[0] ?? ""))
          ? framed(0, await this.fs.readFile(args[0] ?? ""))
          : { exitCode: 66, stdout: "", stderr: "" };
      case "write": {
        const [path = "", staged = ""] = args;
        await this.fs.writeFile(path, await this.fs.readFile(staged));
        await this.fs.rm(staged);
        return { exitCode: 0, stdout: "", stderr: "" };
      }
      case "dump":
        return { exitCode: 0, stdout: JSON.stringify(await this.dump(args[0] ?? "", Number(args[1]), args.slice(2))), stderr: "" };
      case "load":
        return this.load(args[0] ?? "");
      case "code":
        return this.code(args);
      default:
        throw new Error(`unexpected subcommand ${subcommand}`);
    }
  }

  /** What a container restart does to its disk: everything is gone, the helper too. */
  async restart(): Promise<void> {
    for (const top of ["/mnt", "/opt", "/tmp"]) if (await this.fs.exists(top)) await this.fs.rm(top, { recursive: true });
  }

  /** Files under a directory, relative to it. */
  async filesUnder(root: string): Promise<Record<string, string>> {
    return (await this.dump(root, Number.MAX_SAFE_INTEGER, [])).files;
  }

  private async dump(root: string, maxBytes: number, skip: readonly string[]) {
    const files: Record<string, string> = {};
    let total = 0;
    for (const path of this.fs.getAllPaths().sort()) {
      if (!path.startsWith(`${root}/`)) continue;
      const relative = path.slice(root.length + 1);
      if (skip.some((s) => relative === s || relative.startsWith(`${s}/`))) continue;
      if (!(await this.fs.lstat(path)).isFile) continue;
      const content = await this.fs.readFile(path);
      total += content.length;
      if (total > maxBytes) return { files, truncated: true };
      files[relative] = content;
    }
    return { files, truncated: false };
  }

  private async load(staged: string): Promise<Answer> {
    const spec = JSON.parse(await this.fs.readFile(staged)) as {
      trees: { root: string; replace: boolean; mode: string; files: Record<string, string> }[];
    };
    await this.fs.rm(staged);
    for (const tree of spec.trees) {
      if (tree.replace && (await this.fs.exists(tree.root))) await this.fs.rm(tree.root, { recursive: true });
      await this.fs.mkdir(tree.root, { recursive: true });
      for (const [path, content] of Object.entries(tree.files)) {
        if (path.split("/").some((s) => s === "" || s === "." || s === ".."))
          return { exitCode: 1, stdout: "", stderr: `refusing the path ${JSON.stringify(path)}` };
        await this.fs.writeFile(`${tree.root}/${path}`, content);
      }
      this.modes.set(tree.root, tree.mode);
    }
    return { exitCode: 0, stdout: "", stderr: "" };
  }

  private async code(args: readonly string[]): Promise<Answer> {
    const [spec = "", dir = "", wall, cpu, heap, fs = "", env = "", max] = args;
    // The staged spec: one `<base64 path> <base64 content>` line per file (container-code-run.ts).
    let text = spec.startsWith("inline:") ? spec.slice("inline:".length) : null;
    if (text === null) {
      text = await this.fs.readFile(spec);
      await this.fs.rm(spec);
    }
    const unb64 = (b: string) => Buffer.from(b, "base64").toString("utf8");
    const files: Record<string, string> = {};
    for (const line of text.split("\n").filter(Boolean)) {
      const [path = "", content = ""] = line.split(" ");
      files[unb64(path)] = unb64(content);
    }
    const call: CodeCall = {
      dir,
      wallS: Number(wall),
      cpuS: Number(cpu),
      heapMb: Number(heap),
      fs,
      env,
      maxResultBytes: Number(max),
      files,
      inline: spec.startsWith("inline:"),
    };
    this.codeCalls.push(call);
    return this.onCode(call);
  }
}

/**
 * Splits a command line made of single-quoted words (`'a' 'it'\''s'`), the only form the adapter
 * sends to its helper; throws on anything else (an unquoted word, `;`, `$`, space…).
 */
export function parseQuotedWords(command: string): string[] {
  const words: string[] = [];
  let i = 0;
  while (i < command.length) {
    if (command[i] === " ") {
      i++;
      continue;
    }
    let word = "";
    let quotedAny = false;
    while (i < command.length && command[i] !== " ") {
      if (command[i] === "'") {
        const end = command.indexOf("'", i + 1);
        if (end < 0) throw new Error(`unterminated quote in ${command}`);
        word += command.slice(i + 1, end);
        i = end + 1;
        quotedAny = true;
      } else if (command.startsWith("\\'", i)) {
        word += "'";
        i += 2;
      } else {
        throw new Error(`unquoted text at ${i} in ${command}`);
      }
    }
    if (!quotedAny) throw new Error(`a word without quotes in ${command}`);
    words.push(word);
  }
  return words;
}
