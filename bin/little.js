#!/usr/bin/env node
// The `little` command. Plain JavaScript that any Node parses, so an old Node gets one line
// naming the version it needs instead of a stack trace. In a repository checkout on Node 24 the
// TypeScript source runs as is (never a stale build); otherwise the compiled CLI in dist/, which
// is all the published package has.
const need = 20;
const major = Number(process.versions.node.split(".")[0]);
if (major < need) {
  process.stderr.write(`little needs Node ${need} or newer; this is Node ${process.versions.node}\n`);
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
