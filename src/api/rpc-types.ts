import type { z } from "@hono/zod-openapi";
import type { ApprovalView, SignalView } from "../ports/run-handle.ts";
import type { ForkPlan, RunComparison } from "./routes/run-fork-schemas.ts";
import type { Run, RunEventSchema, RunSummary } from "./schemas.ts";

/**
 * What LittleWorkflowEntrypoint's methods answer, as a caller's `Service<LittleWorkflowEntrypoint>`
 * sees it. They are the HTTP API's own shapes (schemas.ts) with every `unknown` (an output, an
 * input, a payload) read as JSON: Workers RPC types only what it can serialize, and these values
 * are JSON by construction (canonical JSON from the event log).
 */
export type JsonValue = null | boolean | number | string | JsonArray | JsonObject;
// Interfaces, not aliases: RPC's Serializable<T> check then stops at a named type instead of recursing forever.
export interface JsonArray extends ReadonlyArray<JsonValue> {}
export interface JsonObject {
  readonly [key: string]: JsonValue;
}

type Jsonify<T> = unknown extends T
  ? JsonValue
  : T extends readonly (infer U)[]
    ? Jsonify<U>[]
    : T extends object
      ? { [K in keyof T]: Jsonify<T[K]> }
      : T;

/** A run, as `GET /v1/runs/:runId` answers it, without links. */
export type RpcRun = Jsonify<z.infer<typeof Run>>;
export type RpcRunsPage = { runs: Jsonify<z.infer<typeof RunSummary>>[]; nextCursor: string | null };
export type RpcEventsPage = { events: Jsonify<z.infer<typeof RunEventSchema>>[]; nextAfter: number | null };
/** A tool call held for approval (`GET /v1/runs/:runId/approvals`). */
export type RpcApproval = Jsonify<ApprovalView>;
export type RpcDecision = { approval: RpcApproval; created: boolean; run: RpcRun };
export type RpcOccurrence = { occurrenceId: string; created: boolean; run: RpcRun };
/** A signal sent to a run (`POST /v1/runs/:runId/signals`). */
export type RpcSignal = { signal: Jsonify<SignalView>; created: boolean };

/** A restart or fork: the new run and its plan (`POST /v1/runs/:runId/restart`, `/fork`); a dry run has no `run`. */
export type RpcForked = { run?: RpcRun; plan: Jsonify<z.infer<typeof ForkPlan>> };
/** Two runs side by side (`GET /v1/runs/:a/compare/:b`). */
export type RpcComparison = Jsonify<z.infer<typeof RunComparison>>;

/** The values are JSON by construction; this is the one place their static type says so. */
export const asJson = <T>(value: unknown): T => value as T;
/** A bulk job (`GET /v1/runs/bulk/:jobId`). */
export type RpcBulkJob = Jsonify<import("../ports/bulk-jobs.ts").BulkJobView>;
