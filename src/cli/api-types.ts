/** The /v1 API's response shapes, as the CLI reads them. */

export { ENDED_STATUSES, isEndedStatus, isSettledStatus, RUN_STATUSES, type RunStatus, SETTLED_STATUSES } from "../ports/run-status.ts";

import type { RunStatus } from "../ports/run-status.ts";

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
  /** A section run's occurrences. */
  occurrences?: { total: number; completed: number; failed: number; pending: number };
};

/** A tool call held for approval (`GET /v1/runs/:runId/approvals`). */
export type Approval = {
  approvalId: string;
  stepPath: string;
  tool: string;
  args: unknown;
  argsHash: string;
  expiresAt: number;
  status: string;
  reason?: string;
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

/** A token's record as the API shows it (never its secret). */
export type TokenView = {
  id: string;
  tenant: string;
  label: string | null;
  scopes: string[];
  createdAt: number;
  expiresAt: number | null;
  lastUsedAt: number | null;
  revokedAt: number | null;
};

/** `POST /v1/tokens`: the secret, shown once, and (from servers with token lifecycle) its record. */
export type TokenResponse = { token: string; tenant: string; label?: string } & Partial<Omit<TokenView, "tenant" | "label">>;
