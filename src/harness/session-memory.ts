import {
  attachedMemoryDir,
  attachedMemoryStoreId,
  type MemoryMount,
  ORG_MEMORY_DIR,
  orgMemoryStoreId,
  WORKFLOW_MEMORY_DIR,
  workflowMemoryStoreId,
} from "../ports/memory-store.ts";
import type { ExecResult, SandboxSession } from "../ports/sandbox.ts";
import type { MemoryConfig } from "../sdk/define-workflow.ts";
import type { HarnessContext } from "./harness-context.ts";

/** The modes of the mounted stores, as a definition's `memory` config gives them. */
export type MemoryModes = Pick<MemoryConfig, "workflow" | "org"> & { readonly attached?: MemoryConfig["attached"] };

/**
 * The mounts a run's harness sessions get: `/mnt/memory/workflow` (store `workflow:<tenant>:<id>`),
 * `/mnt/memory/org` (store `org:<tenant>`), each in its configured mode (`none` mounts nothing),
 * and each attached store at `/mnt/memory/<id>` (store `attached:<tenant>:<id>`) in its mode.
 */
export function memoryMounts(modes: MemoryModes, run: { readonly workflowId: string; readonly tenant: string }): MemoryMount[] {
  const mounts: MemoryMount[] = [];
  if (modes.workflow !== "none")
    mounts.push({ path: WORKFLOW_MEMORY_DIR, storeId: workflowMemoryStoreId(run.tenant, run.workflowId), mode: modes.workflow });
  if (modes.org !== "none") mounts.push({ path: ORG_MEMORY_DIR, storeId: orgMemoryStoreId(run.tenant), mode: modes.org });
  for (const store of modes.attached ?? [])
    mounts.push({ path: attachedMemoryDir(store.id), storeId: attachedMemoryStoreId(run.tenant, store.id), mode: store.mode });
  return mounts;
}

/**
 * The mounts for a session of this run: the workflow id and tenant come from its `RunRequested`
 * event. Without modes (a caller that does not know the definition's config) nothing is mounted.
 */
export async function sessionMemoryMounts(ctx: HarnessContext, modes: MemoryModes | undefined): Promise<MemoryMount[]> {
  if (!modes) return [];
  const [requested] = await ctx.log.page({ after: 0, limit: 1, types: ["RunRequested"] });
  if (requested?.type !== "RunRequested") return [];
  return memoryMounts(modes, { workflowId: requested.payload.workflowId, tenant: requested.payload.tenant });
}

/**
 * One bash tool call: runs the command, then saves what it changed under the rw memory mounts
 * (through `redact`, so a secret a command writes there is never stored).
 * A save the store refuses is reported on stderr; the command's own result stands.
 */
export async function execAndPersist(session: SandboxSession, command: string, redact?: (text: string) => string): Promise<ExecResult> {
  const result = await session.exec(command);
  try {
    await session.persistMemory(redact ? { redact } : {});
    return result;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ...result,
      stderr: `${result.stderr}${result.stderr && !result.stderr.endsWith("\n") ? "\n" : ""}memory not saved: ${message}\n`,
    };
  }
}
