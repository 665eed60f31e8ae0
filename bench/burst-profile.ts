/**
 * `node bench/burst-profile.ts [runs]`: where the Worker's CPU goes in a burst. Starts the bench
 * `wrangler dev`, takes a DevTools CPU profile of the Worker's isolate (through wrangler's
 * inspector) while `runs` (default 300) starts of the one-step no-op LWIR go out over 64
 * connections and drain, and prints the isolate's time by self time per function and per source
 * file, with `(program)` (native work outside JS: SQLite, the runtime's I/O) and `(idle)` apart.
 * Prints figures; it writes no result file.
 */
import { benchClient } from "./support/bench-client.ts";
import { sleep, startBenchDev } from "./support/bench-dev.ts";
import { burst, drain } from "./support/burst-load.ts";
import { indexEnds } from "./support/run-listing.ts";
import { noopLwir, startOurs } from "./support/run-starts.ts";

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number; scriptId: string }; children?: number[] };
/** A script's lines and, for each, the source module it came from. */
type Script = { lines: string[]; modules: string[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

const runs = Number(process.argv[2] ?? 300);
const dev = await startBenchDev();
try {
  const api = benchClient(dev.url, dev.devToken);
  const lwir = await noopLwir(api);
  const workflowId = (lwir as { metadata: { name: string } }).metadata.name;
  const ours = startOurs(api, lwir);
  for (let i = 0; i < 5; i++) await ours();
  await sleep(1_000);
  const profiler = await connect(dev.inspectorPort);
  await profiler.send("Profiler.enable");
  await profiler.send("Profiler.setSamplingInterval", { interval: 200 });
  await profiler.send("Profiler.start");
  const prefix = `profile_${Date.now()}_`;
  const b = await burst((key) => ours(`${prefix}${key}`), { count: runs, connections: 64, attempts: 8, backoffMs: 250 });
  const d = await drain(b.ids, indexEnds(api, workflowId, b.wall0), { sweepMs: 250, withinMs: 300_000, notFoundMs: 30_000 });
  const { profile } = (await profiler.send("Profiler.stop")) as { profile: Profile };
  const modules = await moduleMaps(profiler, profile);
  profiler.close();
  console.log(
    `${b.ids.length} runs accepted in ${b.acceptedMs.toFixed(0)} ms, ${d.ends.size} ended; profile of ${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s`,
  );
  report(profile, b.ids.length, modules);
} finally {
  await dev.dispose();
}

/** A DevTools session on the Worker's isolate, found through wrangler's inspector (`/json/list`). */
async function connect(port: number) {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string; title?: string }[];
  const target = targets.find((t) => !t.title?.includes("proxy")) ?? targets[0];
  if (!target) throw new Error(`no inspector target on port ${port}`);
  // The inspector refuses an upgrade without an allowed Origin (undici's WebSocket takes `headers`).
  const init = { headers: { origin: "http://localhost" } } as unknown as string[];
  const ws = new WebSocket(target.webSocketDebuggerUrl, init) as WebSocket & {
    onopen: (e: unknown) => void;
    onerror: (e: unknown) => void;
    onmessage: (e: { data: unknown }) => void;
  };
  await new Promise((ok, fail) => {
    ws.onopen = ok;
    ws.onerror = fail;
  });
  let next = 0;
  const waiting = new Map<number, (result: unknown) => void>();
  ws.onmessage = (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: unknown };
    if (message.id !== undefined)
      waiting.get(message.id)?.(message.error ? Promise.reject(new Error(JSON.stringify(message.error))) : message.result);
  };
  return {
    send: (method: string, params: Record<string, unknown> = {}) =>
      new Promise<unknown>((resolve) => {
        const id = ++next;
        waiting.set(id, resolve);
        ws.send(JSON.stringify({ id, method, params }));
      }),
    close: () => ws.close(),
  };
}

/**
 * For each script in the profile, the source module of each line: esbuild's bundle marks where each
 * module starts with a `// path/to/module.ts` comment line.
 */
async function moduleMaps(profiler: Awaited<ReturnType<typeof connect>>, profile: Profile): Promise<Map<string, Script>> {
  await profiler.send("Debugger.enable");
  const maps = new Map<string, Script>();
  for (const id of new Set(profile.nodes.map((n) => n.callFrame.scriptId))) {
    if (!id || id === "0") continue;
    const { scriptSource } = (await profiler.send("Debugger.getScriptSource", { scriptId: id }).catch(() => ({ scriptSource: "" }))) as {
      scriptSource: string;
    };
    let current = "";
    const lines = scriptSource.split("\n");
    maps.set(id, {
      lines,
      modules: lines.map((line) => {
        const marker = /^\/\/ (\S+\.[cm]?[jt]sx?)$/.exec(line);
        if (marker) {
          const path = marker[1] as string;
          // node_modules is a symlink in the snapshot: esbuild names its real path, outside the project.
          const dep = path.lastIndexOf("node_modules/");
          current = dep >= 0 ? path.slice(dep) : path.replace(/^(\.\.\/)+/, "");
        }
        return current;
      }),
    });
  }
  await profiler.send("Debugger.disable");
  return maps;
}

/** Self time per function and per source module, as shares of the profile and as ms per run. */
function report(profile: Profile, count: number, scripts: Map<string, Script>): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (const [i, id] of profile.samples.entries()) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const fn = new Map<string, number>();
  const file = new Map<string, number>();
  for (const [id, us] of self) {
    const { functionName, url, lineNumber, scriptId } = (byId.get(id) as Node).callFrame;
    const script = scripts.get(scriptId);
    const where = script?.modules[lineNumber] || url;
    // An anonymous function is named by its line's text, e.g. `start: (request) => stub.start(request),`.
    const text = functionName ? "" : ` \`${(script?.lines[lineNumber] ?? "").trim().slice(0, 60)}\``;
    const name = `${functionName || "(anonymous)"} ${where}${text}`;
    fn.set(name, (fn.get(name) ?? 0) + us);
    // A dependency as one package; our own code by module.
    const group = url ? where.replace(/^(node_modules\/(@[^/]+\/)?[^/]+)\/.*$/, "$1") : functionName;
    file.set(group, (file.get(group) ?? 0) + us);
  }
  const busy = total - (file.get("(idle)") ?? 0);
  const line = (name: string, us: number) =>
    `  ${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1_000 / count).toFixed(2).padStart(6)} ms/run  ${name}`;
  console.log(
    `isolate busy ${((busy / total) * 100).toFixed(0)}% of ${(total / 1e6).toFixed(1)} s; ${(busy / 1_000 / count).toFixed(1)} ms of CPU per run`,
  );
  console.log("by module, or package (self time):");
  for (const [name, us] of [...file].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(line(name, us));
  console.log("by function (self time):");
  for (const [name, us] of [...fn].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(line(name, us));
}
