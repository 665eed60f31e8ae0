import { SCRATCH_DIR } from "../../ports/sandbox.ts";
import { CODE_RUNNER_REMEDY } from "../../ports/sandbox-check.ts";
import { CODE_DIR, HELPER_DIR, HELPER_FS, MAX_EXEC_OUTPUT, SANDBOX_UID, STAGE_DIR } from "./container-layout.ts";
import { FRAME_TAG } from "./output-frame.ts";

/** Exit status of the helper when it cannot give the sandbox user its own network namespace. */
export const NO_NETWORK_NAMESPACE_EXIT = 125;
/** What the helper prints then (the adapter and the docs quote it). */
export const NO_NETWORK_NAMESPACE_MESSAGE = `little.sh: cannot give the sandbox user its own network namespace (unshare --net failed); refusing to run its commands, which could otherwise reach the sandbox's control API on this container's loopback. Remedy: ${CODE_RUNNER_REMEDY}`;

/**
 * The shell helper the adapter installs in each container: every command the adapter sends is
 * `bash little.sh <subcommand> <quoted args…>`, so untrusted text only ever arrives as an argument
 * ("$1"), never as shell source. `as_user` drops to the sandbox uid with a clean environment (no
 * variables of the container leak into commands). `timeout` kills the whole process group.
 *
 * **The control API.** `@cloudflare/sandbox`'s container server (port 3000, root) runs any command
 * it is asked to, and it listens on the container's network. So everything that runs as the
 * sandbox user runs in a **network namespace of its own** (`unshare --net`, as root, before
 * `setpriv` drops privileges: `OWN_NET`): it sees only its own loopback (brought up, so code can
 * still serve and call itself on 127.0.0.1) and no interface of the container — neither the
 * server's loopback nor the container's address. Holding no capability, the user cannot leave it
 * (`setns` needs CAP_SYS_ADMIN), and every process it starts, `setsid` daemons too, stays in it.
 * If the namespace cannot be created (a runtime that refuses `unshare`), the helper refuses to run
 * the user's commands at all (exit 125, {@link NO_NETWORK_NAMESPACE_MESSAGE}) rather than run them
 * next to the control API. Why not an iptables owner rule instead: it needs CAP_NET_ADMIN and the
 * `xt_owner` module, and must list every address of the container, where a namespace has none.
 */
export const HELPER_SH_SOURCE = `#!/bin/bash
set -u
USER_ID=${SANDBOX_UID}
PATH_USER=/usr/local/bin:/usr/bin:/bin
# A fresh network namespace for the sandbox user (see the comment in helper-scripts.ts): its own
# loopback only. 'ip' may be missing or refused: a loopback left down isolates just as well.
NET_UP='ip link set lo up 2>/dev/null; exec "$@"'
OWN_NET=(unshare --net -- /bin/sh -c "$NET_UP" own-net)
# Checked once per container: the marker is root's (HELPER_DIR is not the user's to write).
require_own_net() {
  [ -e ${HELPER_DIR}/own-net-ok ] && return 0
  unshare --net -- true 2>/dev/null && : > ${HELPER_DIR}/own-net-ok && return 0
  echo "${NO_NETWORK_NAMESPACE_MESSAGE}" >&2
  exit ${NO_NETWORK_NAMESPACE_EXIT}
}
# frame <exit> <out-file> <err-file> <max-out> <max-err>: the one line the adapter reads back
# (output-frame.ts). Base64, so no byte of the command's output is trimmed or re-decoded on the way.
frame() { printf '%s %s %s %s\\n' ${FRAME_TAG} "$1" "$(head -c "$4" "$2" | base64 -w0)" "$(head -c "$5" "$3" | base64 -w0)"; }
as_user() { "\${OWN_NET[@]}" setpriv --reuid=$USER_ID --regid=$USER_ID --clear-groups -- env -i PATH=$PATH_USER HOME=${SCRATCH_DIR} LANG=C.UTF-8 "$@"; }
sub=$1; shift
case "$sub" in
  exec|read|write|dump|code) require_own_net ;;
esac
case "$sub" in
  exec)
    # exec <timeout-seconds> <script>: the script runs in the scratch directory as the sandbox user.
    out=$(mktemp -p ${STAGE_DIR}) err=$(mktemp -p ${STAGE_DIR})
    (cd ${SCRATCH_DIR} && timeout -k 2 "$1" "\${OWN_NET[@]}" setpriv --reuid=$USER_ID --regid=$USER_ID --clear-groups -- env -i PATH=$PATH_USER HOME=${SCRATCH_DIR} PWD=${SCRATCH_DIR} LANG=C.UTF-8 bash -c "$2") >"$out" 2>"$err" </dev/null
    code=$?
    frame "$code" "$out" "$err" ${MAX_EXEC_OUTPUT + 1} ${MAX_EXEC_OUTPUT + 1}
    rm -f "$out" "$err"
    exit 0 ;;
  read)
    # read <path>: the file as the sandbox user sees it, framed (exit 66 when it cannot be read).
    out=$(mktemp -p ${STAGE_DIR})
    as_user cat -- "$1" >"$out" 2>/dev/null || { rm -f "$out"; exit 66; }
    frame 0 "$out" /dev/null $(stat -c %s "$out") 0; rm -f "$out" ;;
  write)
    # write <path> <staged file>: copies a staged host write into place as the sandbox user.
    as_user sh -c 'mkdir -p -- "$(dirname -- "$1")" && cat > "$1"' sh "$1" <"$2"; code=$?
    rm -f -- "$2"; exit $code ;;
  dump)
    # dump <root> <max-bytes> [skip…]: the regular files under root as JSON, read as the sandbox user.
    as_user node ${HELPER_FS} dump "$@" ;;
  load)
    # load <staged spec>: lays out trees (scratch, memory, references) as root, then hands rw trees to the user.
    node ${HELPER_FS} load "$1" $USER_ID; code=$?; rm -f -- "$1"; exit $code ;;
  code)
    # code <staged spec | inline:spec> <dir> <wall-s> <cpu-s> <heap-mb> <fs allow|deny> <env allow|deny> <max-result-bytes>:
    # lays the code out as root (read-only to the user) from the spec, one "<base64 path> <base64
    # content>" line per file — bash and base64, no second node — then runs it and prints a frame of
    # the exit code, what the runner wrote to fd 3 (as stdout) and the code's own output (as stderr).
    # CPU: SIGXCPU at the soft limit, SIGKILL a second later at the hard one.
    spec=$1; shift
    # A small spec comes inline ("inline:<lines>", base64 and newlines only): no staged write first.
    if [ "\${spec#inline:}" != "$spec" ]; then
      inline=\${spec#inline:}; spec=$(mktemp -p ${STAGE_DIR}); printf '%s' "$inline" > "$spec"
    fi
    dir=$1 wall=$2 cpu=$3 heap=$4 fs=$5 envp=$6
    mkdir -p "$dir/code" "$dir/out" "$dir/tmp" && chown $USER_ID:$USER_ID "$dir/tmp" || exit 1
    while read -r p c; do
      rel=$(printf %s "$p" | base64 -d)
      case "/$rel/" in */../*|*/./*|*//*) echo "little.sh: refusing the path $rel" >&2; rm -rf -- "$dir" "$spec"; exit 65 ;; esac
      mkdir -p "$(dirname -- "$dir/code/$rel")" && printf %s "$c" | base64 -d > "$dir/code/$rel" || { rm -rf -- "$dir" "$spec"; exit 1; }
    done < "$spec"
    rm -f -- "$spec"
    if [ "$fs" = allow ]; then perm=(--permission "--allow-fs-read=*" "--allow-fs-write=$dir/tmp"); else perm=(--permission "--allow-fs-read=$dir/code"); fi
    # Never the container's environment, whatever the policy: declared variables come as a file (code-runner-source.ts).
    envv=(-i PATH=$PATH_USER HOME="$dir/tmp" LANG=C.UTF-8)
    (cd "$dir/code" && ulimit -S -t "$cpu" && ulimit -H -t $((cpu + 1)) && timeout -k 1 "$wall" "\${OWN_NET[@]}" setpriv --reuid=$USER_ID --regid=$USER_ID --clear-groups -- env "\${envv[@]}" node --max-old-space-size="$heap" "\${perm[@]}" "$dir/code/__little_runner.mjs") 3>"$dir/out/result" >"$dir/out/log" 2>&1 </dev/null
    code=$?
    frame "$code" "$dir/out/result" "$dir/out/log" "$7" ${MAX_EXEC_OUTPUT}
    rm -rf -- "$dir"; exit 0 ;;
  *) echo "little.sh: unknown subcommand $sub" >&2; exit 64 ;;
esac
`;

/**
 * The filesystem helper (Node, inside the container). `dump` walks a tree without following
 * symlinks and prints `{ files, truncated }`; `load` replaces trees from a spec the host staged,
 * refusing paths with empty, `.` or `..` segments, and gives `rw` trees to the sandbox user (`ro`
 * trees stay root's, so the user cannot write them).
 */
export const HELPER_FS_SOURCE = `import { lchownSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
const [command, ...args] = process.argv.slice(2);
const safe = (p) => typeof p === "string" && p.length > 0 && !p.startsWith("/") && !p.includes("\\0") && p.split("/").every((s) => s !== "" && s !== "." && s !== "..");
if (command === "dump") {
  const [root, maxBytes, ...skip] = args;
  const files = {};
  let total = 0;
  let truncated = false;
  const walk = (rel) => {
    let entries;
    try { entries = readdirSync(rel ? join(root, rel) : root, { withFileTypes: true }); } catch { return; }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (truncated) return;
      const path = rel ? rel + "/" + entry.name : entry.name;
      if (skip.some((s) => path === s || path.startsWith(s + "/"))) continue;
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        let content;
        try { content = readFileSync(join(root, path), "utf8"); } catch { continue; }
        total += Buffer.byteLength(content);
        if (total > Number(maxBytes)) { truncated = true; return; }
        files[path] = content;
      }
    }
  };
  walk("");
  process.stdout.write(JSON.stringify({ files, truncated }));
} else if (command === "load") {
  const spec = JSON.parse(readFileSync(args[0], "utf8"));
  const uid = Number(args[1]);
  const own = (path) => {
    lchownSync(path, uid, uid);
    if (lstatSync(path).isDirectory()) for (const name of readdirSync(path)) own(join(path, name));
  };
  for (const tree of spec.trees) {
    if (!tree.root.startsWith("/mnt/") && !tree.root.startsWith("${CODE_DIR}/")) throw new Error("refusing to load outside /mnt: " + tree.root);
    if (tree.replace) rmSync(tree.root, { recursive: true, force: true });
    mkdirSync(tree.root, { recursive: true });
    for (const [rel, content] of Object.entries(tree.files)) {
      if (!safe(rel)) throw new Error("refusing the path " + JSON.stringify(rel));
      const path = join(tree.root, rel);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
    }
    if (tree.mode === "rw") own(tree.root);
  }
} else {
  process.stderr.write("little-fs: unknown command " + command + "\\n");
  process.exit(64);
}
`;
