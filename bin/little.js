#!/usr/bin/env node
// The `little` command. Plain JavaScript that any Node parses, so an old Node gets one line
// naming the version it needs instead of a stack trace; then the compiled CLI (dist/) runs, or,
// in a repository checkout that was not built, the TypeScript source (Node 24 runs it as is).
const need = 20;
const major = Number(process.versions.node.split(".")[0]);
if (major < need) {
  process.stderr.write(`little needs Node ${need} or newer; this is Node ${process.versions.node}\n`);
  process.exit(2);
}
const { existsSync } = await import("node:fs");
const built = new URL("../dist/src/cli/little.js", import.meta.url);
if (existsSync(built)) await import(built.href);
else if (major >= 24) await import(new URL("../src/cli/little.ts", import.meta.url).href);
else {
  process.stderr.write(`little: this checkout is not built; run "npm run build" or use Node 24 (this is Node ${process.versions.node})\n`);
  process.exit(2);
}
