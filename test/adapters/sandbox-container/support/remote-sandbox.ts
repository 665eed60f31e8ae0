import type { MemoryChanges, MemoryFiles, MemoryStore } from "../../../../src/ports/memory-store.ts";
import type {
  ExecResult,
  MemoryPersistReport,
  RunCodeRequest,
  RunCodeResult,
  Sandbox,
  SandboxSession,
  SandboxSessionOptions,
  ScratchFiles,
} from "../../../../src/ports/sandbox.ts";
import type { BoxKind, ContractCall } from "./contract-worker.ts";

let counter = 0;

/**
 * The Sandbox port over the contract worker (contract-worker.ts) in a `wrangler dev
 * --enable-containers`: every call runs in the Worker on real containers. Memory stores live on
 * this side — the stores a session mounts are sent with it and written back after
 * `persistMemory` — so the contract can seed and inspect them as with any adapter.
 */
export class RemoteSandbox implements Sandbox {
  private readonly url: string;
  private readonly memory: MemoryStore;
  private readonly box = `box${Date.now().toString(36)}${++counter}`;

  private readonly kind: BoxKind;

  constructor(url: string, memory: MemoryStore, kind: BoxKind = "container") {
    this.url = url;
    this.memory = memory;
    this.kind = kind;
  }

  async openSession(options: SandboxSessionOptions): Promise<SandboxSession> {
    const stores: Record<string, MemoryFiles> = {};
    for (const mount of options.memory ?? []) stores[mount.storeId] = await this.memory.load(mount.storeId);
    const session = `${this.box}/${options.sessionId}/${++counter}`;
    await call(this.url, { op: "open", box: this.box, kind: this.kind, session, options, stores });
    const url = this.url;
    const memory = this.memory;
    return {
      exec: (script, o = {}) => call<ExecResult>(url, { op: "exec", session, script, ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}) }),
      readFile: (path) => call<string | null>(url, { op: "readFile", session, path }),
      writeFile: (path, content) => call<void>(url, { op: "writeFile", session, path, content }),
      snapshotScratch: () => call<ScratchFiles>(url, { op: "snapshotScratch", session }),
      async persistMemory(): Promise<MemoryPersistReport> {
        const { report, stores: after } = await call<{ report: MemoryPersistReport; stores: Record<string, MemoryFiles> }>(url, {
          op: "persistMemory",
          session,
        });
        for (const [storeId, files] of Object.entries(after)) {
          const before = await memory.load(storeId);
          const changes: Record<string, string | null> = { ...files };
          for (const path of Object.keys(before)) if (!Object.hasOwn(files, path)) changes[path] = null;
          if (Object.keys(changes).length > 0) await memory.save(storeId, changes as MemoryChanges);
        }
        return report;
      },
    };
  }

  runCode(request: RunCodeRequest): Promise<RunCodeResult> {
    return call<RunCodeResult>(this.url, { op: "runCode", box: this.box, kind: this.kind, request });
  }
}

async function call<T>(url: string, body: ContractCall): Promise<T> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const answer = (await res.json()) as { ok: boolean; result?: T; error?: string };
  if (!answer.ok) throw new Error(`contract worker: ${answer.error}`);
  return answer.result as T;
}
