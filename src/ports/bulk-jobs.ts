/**
 * @module Bulk actions over a tenant's runs (docs/runs.md, "Bulk actions"): one job per request,
 * one coordination object per job (a Durable Object in the Worker) whose alarm walks the run index
 * page by page with its cursor stored before it acts, so a crash resumes where it stopped and no
 * run is acted on twice.
 */
import type { RunStatus, WaitReason } from "./run-status.ts";

export const BULK_ACTIONS = ["cancel", "restart", "delete"] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** Which runs a job acts on: all of the tenant's runs that match every given field. */
export type BulkFilter = {
  readonly workflowId?: string;
  readonly status?: RunStatus;
  readonly waitReason?: WaitReason;
  /** `key:value`: only runs started with that tag. */
  readonly tag?: string;
  /** Epoch ms, inclusive. */
  readonly createdAfter?: number;
  /** Epoch ms, exclusive. */
  readonly createdBefore?: number;
};

export type BulkJobSpec = {
  readonly jobId: string;
  readonly tenant: string;
  readonly action: BulkAction;
  readonly filter: BulkFilter;
  /** Count what matches and act on nothing. */
  readonly dryRun: boolean;
  /** Who asked (a token id, `dev`, `admin`): deletions record `bulk:<job id>`. */
  readonly by: string;
  readonly createdAt: number;
};

export type BulkFailure = { readonly runId: string; readonly code: string; readonly message: string };

export type BulkJobView = {
  readonly jobId: string;
  readonly action: BulkAction;
  readonly filter: BulkFilter;
  readonly dryRun: boolean;
  readonly state: "running" | "done";
  /** Runs the filter matched so far (all of them once `done`). */
  readonly matched: number;
  /** Runs acted on (0 for a dry run). */
  readonly done: number;
  readonly failed: number;
  /** Each failed run and its cause (the first 100). */
  readonly failures: readonly BulkFailure[];
  /** A dry run's first matched run ids (up to 100). */
  readonly sample?: readonly string[];
  readonly createdAt: number;
  readonly endedAt?: number;
};

/** One job's coordination object. */
export interface BulkJobHandle {
  /** Creates the job and arms its walk; the same job id again answers the job as it is. */
  create(spec: BulkJobSpec): Promise<BulkJobView>;
  /** The job as it is now; null when no job has this id (in this tenant). */
  status(): Promise<BulkJobView | null>;
}

export interface BulkJobs {
  open(tenant: string, jobId: string): BulkJobHandle;
}
