import type { ModelOverrides } from "../identity/model-overrides.ts";
import type { BlobStore } from "../ports/blob-store.ts";
import type { Clock } from "../ports/clock.ts";
import type { DefinitionApprovals } from "../ports/definition-approvals.ts";
import type { EventLog } from "../ports/event-log.ts";
import type { ModelResolver } from "../ports/model-resolver.ts";
import type { RunIndex } from "../ports/run-index.ts";
import type { Sandbox } from "../ports/sandbox.ts";
import type { SecretStore } from "../ports/secret-store.ts";
import type { VersionStore } from "../ports/version-store.ts";
import type { WorkflowDefinition } from "../sdk/define-workflow.ts";
import type { ToolRegistry } from "../sdk/tool.ts";
import type { RunQuotas } from "./run-quotas.ts";

/**
 * A workflow a run can be started for, with the tools its `globalTools` resolve against and the
 * deployment's model overrides (`LITTLE_MODEL_<SLOT>`), which are part of its definition hash.
 */
export type RegisteredWorkflow = {
  readonly definition: WorkflowDefinition;
  readonly tools: ToolRegistry;
  readonly modelOverrides?: ModelOverrides;
};

/** Looks workflows up by id (the Worker's registry, or a test's). */
export interface WorkflowCatalog {
  get(workflowId: string): RegisteredWorkflow | undefined;
  /** Every registered id, sorted. */
  ids(): string[];
}

/** Everything one drive slice of one run needs: the ports, wired by the caller. */
export type RunEnvironment = {
  readonly runId: string;
  readonly log: EventLog;
  readonly versions: VersionStore;
  readonly runs: RunIndex;
  readonly blobs: BlobStore;
  readonly sandbox: Sandbox;
  readonly models: ModelResolver;
  readonly clock: Clock;
  readonly workflows: WorkflowCatalog;
  readonly sleep: (ms: number) => Promise<void>;
  /** How long this slice may start new live calls, in ms. */
  readonly sliceMs: number;
  /** Idle ms after which a model call counts as hung (`LITTLE_MODEL_TIMEOUT_MS`); the harness default when absent. */
  readonly modelTimeoutMs?: number;
  /** Aborted when the run is cancelled while the slice runs. */
  readonly signal?: AbortSignal;
  /** Per-run limits (LWIR bytes, model tokens, log bytes); absent: DEFAULT_RUN_QUOTAS. */
  readonly quotas?: RunQuotas;
  /**
   * The tenants' approvals: a run started under one checks at every slice that it still stands
   * (revoked: `definition_approval_revoked`). Absent: not checked (hosts without approvals).
   */
  readonly approvals?: DefinitionApprovals;
  /** Where the secrets a definition binds are decrypted from (absent: such runs fail closed). */
  readonly secrets?: SecretStore;
  /** The Worker's `env` (bindings and vars), handed to tools as `context.env`; never logged. */
  readonly bindings?: unknown;
};

/** A catalog over a fixed list. */
export function catalogOf(entries: readonly RegisteredWorkflow[]): WorkflowCatalog {
  const byId = new Map(entries.map((e) => [e.definition.id, e]));
  return { get: (id) => byId.get(id), ids: () => [...byId.keys()].sort() };
}
