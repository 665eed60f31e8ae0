#!/usr/bin/env node
// The `little` command. Plain JavaScript that any Node parses, so an old Node gets one line
// naming the version it needs instead of a stack trace. In a repository checkout on Node 24 the
// TypeScript source runs as is (never a stale build); otherwise the compiled CLI in dist/, which
// is all the published package has.
// 20.3: the engine (which ./testing runs in Node too) uses AbortSignal.any.
const need = [20, 3];
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < need[0] || (major === need[0] && minor < need[1])) {
  process.stderr.write(`little needs Node ${need.join(".")} or newer; this is Node ${process.versions.node}\n`);
  process.exit(2);
}
const { existsSync } = await import("node:fs");
const source = new URL("../src/cli/little.ts", import.meta.url);
const built = new URL("../dist/src/cli/little.js", import.meta.url);
if (major >= 24 && existsSync(source)) await import(source.href);
else if (existsSync(built)) await import(built.href);
else {
  process.stderr.write(`little: this checkout is not built; run "npm run build" or use Node 24 (this is Node ${process.versions.node})\n`);
  process.exit(2);
}
