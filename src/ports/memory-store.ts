import { MemoryStoreError } from "../sdk/errors/memory-store-error.ts";
/** A memory store's files by path relative to its mount (`lessons.md`, `notes/triage.md`). */
export type MemoryFiles = Readonly<Record<string, string>>;

/** Changes to a store: a path mapped to its new content, or to `null` to delete it. */
export type MemoryChanges = Readonly<Record<string, string | null>>;

/**
 * Where planner and fixer memory lives between runs (D1 in production, memory in unit tests).
 * A store is a flat set of text files under one id: `workflow:<tenant>:<workflowId>`, `org:<tenant>`
 * or `attached:<tenant>:<id>`.
 */
export interface MemoryStore {
  /** The store's files; `{}` for a store never written. */
  load(storeId: string): Promise<MemoryFiles>;
  /**
   * Applies changes at once (all or none): files named get the new content or are deleted, files
   * not named keep theirs. Throws {@link MemoryStoreError} on an invalid path or an oversized file.
   */
  save(storeId: string, changes: MemoryChanges): Promise<void>;
}

/** Largest file a store keeps, and the most bytes and files one store may hold. */
export const MAX_MEMORY_FILE_BYTES = 256 * 1024;
export const MAX_MEMORY_STORE_BYTES = 1024 * 1024;
export const MAX_MEMORY_FILES = 256;

/** The store of one workflow's memory, shared by all its runs. */
export function workflowMemoryStoreId(tenant: string, workflowId: string): string {
  // Per tenant: a lesson learned serving one tenant never reaches another.
  return `workflow:${tenant}:${workflowId}`;
}

/** The store of one tenant's organisation memory. */
export function orgMemoryStoreId(tenant: string): string {
  return `org:${tenant}`;
}

/**
 * The store of an attached memory (`memory.attached: [{ id, mode }]`): one per tenant and id, so
 * every workflow of the tenant that attaches `id` shares it (a knowledge base, a runbook set),
 * while tenants never see each other's.
 */
export function attachedMemoryStoreId(tenant: string, id: string): string {
  return `attached:${tenant}:${id}`;
}

/** Where an attached store is mounted: `/mnt/memory/<id>`. */
export function attachedMemoryDir(id: string): string {
  return `${MEMORY_ROOT}/${id}`;
}

/** Thrown by {@link MemoryStore.save} for changes no store accepts. */
export { MemoryStoreError };

/**
 * Whether a path may name a file in a store: relative, `/`-separated, no empty, `.` or `..`
 * segments, no backslash or control characters, at most 512 characters.
 */
export function validMemoryPath(path: string): boolean {
  if (path.length === 0 || path.length > 512 || path.startsWith("/") || path.endsWith("/")) return false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  if (/[\\\u0000-\u001f\u007f]/.test(path)) return false;
  return path.split("/").every((segment) => segment !== "" && segment !== "." && segment !== "..");
}

/** Checks changes before a store applies them; throws {@link MemoryStoreError}. */
export function assertValidChanges(storeId: string, changes: MemoryChanges): void {
  if (storeId.length === 0 || storeId.length > 300) throw new MemoryStoreError(`invalid memory store id ${JSON.stringify(storeId)}`);
  for (const [path, content] of Object.entries(changes)) {
    if (!validMemoryPath(path)) throw new MemoryStoreError(`invalid memory file path ${JSON.stringify(path)}`);
    if (content !== null && new TextEncoder().encode(content).length > MAX_MEMORY_FILE_BYTES)
      throw new MemoryStoreError(`${path} is larger than ${MAX_MEMORY_FILE_BYTES} bytes`);
  }
}

/** One store mounted into a bash session (see `SandboxSessionOptions.memory`). */
export type MemoryMount = { readonly path: string; readonly storeId: string; readonly mode: "rw" | "ro" };

export const MEMORY_ROOT = "/mnt/memory";
export const WORKFLOW_MEMORY_DIR = "/mnt/memory/workflow";
export const ORG_MEMORY_DIR = "/mnt/memory/org";
