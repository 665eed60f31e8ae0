/**
 * A test-only Worker for running the Sandbox contract against real containers: it serves the
 * container adapter over a small JSON protocol (`POST /` with `{ op, … }`), so a Node-side test
 * (remote-sandbox.ts) can drive it under `wrangler dev --enable-containers` (wrangler.contract.toml).
 * Never deployed: it has no authentication.
 */
import { MemoryMemoryStore } from "../../../../src/adapters/memory/memory-memory-store.ts";
import { ContainerSandbox } from "../../../../src/adapters/sandbox-container/container-sandbox.ts";
import { openSandboxes } from "../../../../src/adapters/sandbox-container/sandbox-binding.ts";
import type { SandboxContainer } from "../../../../src/adapters/sandbox-container/sandbox-container.ts";
import { IsolateSandbox } from "../../../../src/adapters/sandbox-isolate/isolate-sandbox.ts";
import { checkSandbox, SANDBOX_CHECK_SCOPE } from "../../../../src/engine/sandbox-check.ts";
import type { MemoryFiles } from "../../../../src/ports/memory-store.ts";
import type { RunCodeRequest, Sandbox, SandboxSession, SandboxSessionOptions } from "../../../../src/ports/sandbox.ts";

export { SandboxContainer } from "../../../../src/adapters/sandbox-container/sandbox-container.ts";

type ContractEnv = { SANDBOX: DurableObjectNamespace<SandboxContainer>; LOADER: WorkerLoader };
/** Which adapter a box uses: the container one, or the isolate one for side-by-side figures (bench/container-sandbox.ts). */
export type BoxKind = "container" | "isolate";

/** What the Node side sends; `box` names one sandbox (and its memory store) per contract test. */
export type ContractCall =
  | { op: "open"; box: string; kind?: BoxKind; session: string; options: SandboxSessionOptions; stores: Record<string, MemoryFiles> }
  | { op: "exec"; session: string; script: string; timeoutMs?: number }
  | { op: "readFile" | "snapshotScratch" | "persistMemory"; session: string; path?: string }
  | { op: "writeFile"; session: string; path: string; content: string }
  | { op: "runCode"; box: string; kind?: BoxKind; request: RunCodeRequest };

const boxes = new Map<string, { sandbox: Sandbox; memory: MemoryMemoryStore }>();
const sessions = new Map<string, { session: SandboxSession; memory: MemoryMemoryStore; storeIds: string[] }>();

function box(env: ContractEnv, name: string, kind: BoxKind = "container") {
  let found = boxes.get(name);
  if (!found) {
    const memory = new MemoryMemoryStore();
    const sandbox =
      kind === "isolate"
        ? new IsolateSandbox({ loader: env.LOADER, memory }).forScope(name)
        : new ContainerSandbox({ open: openSandboxes(env.SANDBOX), memory, scope: name });
    found = { sandbox, memory };
    boxes.set(name, found);
  }
  return found;
}

async function handle(env: ContractEnv, call: ContractCall): Promise<unknown> {
  if (call.op === "open") {
    const { sandbox, memory } = box(env, call.box, call.kind);
    for (const [storeId, files] of Object.entries(call.stores)) await memory.save(storeId, files);
    sessions.set(call.session, {
      session: await sandbox.openSession(call.options),
      memory,
      storeIds: Object.keys(call.stores),
    });
    return null;
  }
  if (call.op === "runCode") return box(env, call.box, call.kind).sandbox.runCode(call.request);
  const open = sessions.get(call.session);
  if (!open) throw new Error(`no session ${call.session}`);
  switch (call.op) {
    case "exec":
      return open.session.exec(call.script, call.timeoutMs === undefined ? {} : { timeoutMs: call.timeoutMs });
    case "readFile":
      return open.session.readFile(call.path ?? "");
    case "writeFile":
      return open.session.writeFile(call.path, call.content);
    case "snapshotScratch":
      return open.session.snapshotScratch();
    case "persistMemory": {
      const report = await open.session.persistMemory();
      const stores: Record<string, MemoryFiles> = {};
      for (const id of open.storeIds) stores[id] = await open.memory.load(id);
      return { report, stores };
    }
  }
}

export default {
  async fetch(request: Request, env: ContractEnv): Promise<Response> {
    // The deployed Worker's smoke check route (src/api/app.ts), over the same adapter.
    if (new URL(request.url).pathname === "/v1/health/sandbox") {
      const report = await checkSandbox(new ContainerSandbox({ open: openSandboxes(env.SANDBOX), scope: SANDBOX_CHECK_SCOPE }));
      return Response.json({ sandbox: "container", ...report }, { status: report.ok ? 200 : 503 });
    }
    if (request.method !== "POST") return new Response("sandbox contract worker", { status: 200 });
    try {
      const result = await handle(env, (await request.json()) as ContractCall);
      return Response.json({ ok: true, result: result ?? null });
    } catch (error) {
      return Response.json({ ok: false, error: error instanceof Error ? error.message : String(error) });
    }
  },
} satisfies ExportedHandler<ContractEnv>;
