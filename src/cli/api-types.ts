/** The /v1 API's response shapes, as the CLI reads them. */

export const RUN_STATUSES = ["minted", "pending", "compiling", "running", "waiting", "completed", "failed", "cancelled"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export const ENDED_STATUSES: readonly string[] = ["completed", "failed", "cancelled"];

export type Usage = { inputTokens: number; outputTokens: number; totalTokens: number };

export type RunView = {
  runId: string;
  status: RunStatus;
  workflowId: string;
  versionId?: string | null;
  output?: unknown;
  cause?: { code: string; message: string; details?: unknown } | null;
  usage?: Usage | null;
  eventCount?: number;
  createdAt?: number | null;
  input?: unknown;
};

export type RunLinks = { self?: string; events?: string; stream?: string };

export type StartRunResponse = { run: RunView; links?: RunLinks };

export type RunSummary = {
  runId: string;
  workflowId: string;
  status: string;
  triggerKind: string;
  versionId: string | null;
  causeCode: string | null;
  createdAt: number;
  updatedAt: number;
};

export type RunsPage = { runs: RunSummary[]; nextCursor: string | null };

export type EventsPage = { events: unknown[]; nextAfter: number | null };

export type VersionResponse = {
  version: { id: string; hash: string; canonicalizer: string; lwir: unknown };
  locks: { lockHash: string; definitionHash: string; lock: unknown }[];
};

export type TokenResponse = { token: string; tenant: string; label?: string };
