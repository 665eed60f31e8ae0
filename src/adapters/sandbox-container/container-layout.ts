/**
 * Where the container adapter keeps things inside a container, and who runs what. Commands of
 * bash sessions and code.run run as an unprivileged user: the helper, its scripts and the
 * read-only mounts belong to root, so file modes (not conventions) keep `/mnt/memory/org` and
 * the adapter's own files out of reach.
 */
export const HELPER_DIR = "/opt/little";
/** Host writes are staged here (root only, 0700) and copied into place as the sandbox user. */
export const STAGE_DIR = `${HELPER_DIR}/stage`;
export const HELPER_SH = `${HELPER_DIR}/little.sh`;
export const HELPER_FS = `${HELPER_DIR}/little-fs.mjs`;
/** Each code.run gets a fresh directory under here, removed when it ends. */
export const CODE_DIR = "/tmp/little-code";
/** The uid and gid commands run as (`little` in sandbox/Dockerfile; setpriv needs no passwd entry). */
export const SANDBOX_UID = 10001;
/** Largest stdout or stderr kept from one bash command (as the isolate sandbox). */
export const MAX_EXEC_OUTPUT = 64 * 1024;
/** Largest scratch snapshot (as the isolate sandbox). */
export const MAX_SCRATCH_BYTES = 1024 * 1024;
