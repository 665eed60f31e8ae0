// Runs before every npm script that needs the repository's own toolchain (wrangler, vitest, and
// `node x.ts`, which only Node 24 runs without flags): on an older Node, one line naming the
// version and exit 1, instead of a stack trace from deep inside a loader. CommonJS and old syntax
// on purpose, so any Node can run it.
var need = 24;
var major = Number(process.versions.node.split(".")[0]);
if (major < need) {
  process.stderr.write(
    "This command needs Node " +
      need +
      " or newer (this is Node " +
      process.versions.node +
      "); see .nvmrc. The published package's `little` CLI runs on Node 20.3+.\n",
  );
  process.exit(1);
}
