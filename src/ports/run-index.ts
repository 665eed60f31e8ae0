import type { Digest } from "../json/digest.ts";
import type { RunCauseCode, RunPlacement } from "./run-events.ts";
import type { RunStatus, WaitReason } from "./run-status.ts";

export type { RunPlacement } from "./run-events.ts";

/** One row of the run index: what a list of runs shows without opening each run. */
export type RunIndexEntry = {
  readonly tenant: string;
  readonly runId: string;
  readonly workflowId: string;
  readonly status: RunStatus;
  /** Why a `waiting` run waits (the fold's reason); null (or absent) for any other status. */
  readonly waitReason?: WaitReason | null;
  readonly triggerKind: string;
  readonly definitionHash: Digest | null;
  readonly versionId: string | null;
  readonly causeCode: RunCauseCode | null;
  readonly placement: RunPlacement;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** The start's tags; written with the row's first write, never changed. */
  readonly tags?: Readonly<Record<string, string>> | null;
  /** How far the run's steps are, as of this write; absent keeps what the row has. */
  readonly progress?: { readonly stepsTotal: number | null; readonly stepsEnded: number } | null;
};

/** A page position: runs strictly older than this (newest first). */
export type RunCursor = { readonly createdAt: number; readonly runId: string };

export type RunQuery = {
  readonly tenant: string;
  readonly workflowId?: string;
  readonly status?: RunStatus;
  /** Only runs waiting for this (implies status `waiting`). */
  readonly waitReason?: WaitReason;
  /** Only runs carrying every one of these tags (`GET /v1/runs?tag=key:value`, repeatable: AND). */
  readonly tags?: readonly { readonly key: string; readonly value: string }[];
  readonly before?: RunCursor;
  readonly limit: number;
};

/**
 * The run index (D1 in production). Run ids are unique per tenant. A run's status only moves
 * forward: a late write from an older slice never regresses it.
 */
export interface RunIndex {
  upsert(entry: RunIndexEntry): Promise<void>;
  get(tenant: string, runId: string): Promise<RunIndexEntry | null>;
  /** Newest first. */
  list(query: RunQuery): Promise<RunIndexEntry[]>;
  /** Whether any of the tenant's runs was compiled to this version (versions are shared by hash). */
  tenantUsesVersion(tenant: string, versionId: string): Promise<boolean>;
  /** A minted anchor with this run id, whichever tenant minted it (anchor ids are unique). */
  findAnchor(runId: string): Promise<RunIndexEntry | null>;
  /**
   * Claims a minted anchor for its start: moves it from `minted` to `pending` only if it is still
   * minted (compare-and-set). True for exactly one of any number of concurrent claims.
   */
  claimAnchor(tenant: string, runId: string, at: number): Promise<boolean>;
  /** Cancels a minted anchor before any start (compare-and-set, like a claim): true when it was still minted. */
  cancelAnchor(tenant: string, runId: string, at: number): Promise<boolean>;
}
