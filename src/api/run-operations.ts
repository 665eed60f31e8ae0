import { findTenantRun } from "../engine/runs/find-tenant-run.ts";
import { runIdFor } from "../engine/runs/run-ids.ts";
import { parseTagFilter } from "../engine/runs/run-tags.ts";
import { startRun } from "../engine/runs/start-service.ts";
import type { RunTrigger } from "../ports/run-events.ts";
import type { RunHandle, RunView } from "../ports/run-handle.ts";
import type { RunIndexEntry, RunPlacement } from "../ports/run-index.ts";
import type { RunStatus, WaitReason } from "../ports/run-status.ts";
import { isEndedStatus } from "../ports/run-status.ts";
import type { ApiServices } from "./api-env.ts";
import { ApiError } from "./api-error.ts";
import { parseEventTypeFilter } from "./event-type-filter.ts";

/**
 * The run operations every front door shares: the HTTP routes (routes/runs.ts) and the RPC
 * entrypoint (rpc-entrypoint.ts) call these, so ids, idempotency, quotas, validation, anchors
 * and errors are the same whichever way a run is reached.
 */

export type StartRequest = {
  readonly workflowId: string;
  readonly input: unknown;
  /** The caller's run id (per tenant); starting it again returns that run. */
  readonly runId?: string | undefined;
  /** Retries with the same key return the same run. */
  readonly idempotencyKey?: string | undefined;
  readonly location?: string | undefined;
  readonly continent?: string | undefined;
  /** Seconds to wait for the run to end before answering (0: answer at once). */
  readonly wait?: number | undefined;
  readonly triggerKind: RunTrigger["kind"];
  /** The caller's W3C `traceparent` (header, RPC option). */
  readonly traceparent?: string | undefined;
  /** The run's tags (checked by the start service: 422 `run_tags_invalid`). */
  readonly tags?: Readonly<Record<string, string>> | undefined;
};

export type StartedTenantRun = {
  readonly runId: string;
  readonly view: RunView;
  readonly placement: RunPlacement & { jurisdictionEnforced: boolean };
};

/** Starts (or finds) a tenant's run through the engine's start service and, with `wait`, waits for it to end. */
export async function startTenantRun(services: ApiServices, tenant: string, request: StartRequest): Promise<StartedTenantRun> {
  const key = request.idempotencyKey;
  const runId = runIdFor(tenant, request.workflowId, request.runId, key);
  const started = await startRun(services, {
    tenant,
    workflowId: request.workflowId,
    input: request.input,
    runId,
    trigger: { kind: request.triggerKind, ...(key ? { id: key } : {}) },
    ...(request.location ? { location: request.location } : {}),
    ...(request.continent ? { continent: request.continent } : {}),
    conflictCode: key && request.runId === undefined ? "idempotency_conflict" : "run_id_conflict",
    callerRunId: request.runId !== undefined,
    waitMs: request.wait ? request.wait * 1_000 : undefined,
    traceparent: request.traceparent,
    ...(request.tags !== undefined ? { tags: request.tags } : {}),
  });
  return { runId, view: started.view, placement: started.placement };
}

/** A tenant's run as it is now; a minted anchor (no run object yet) is its index row. */
export async function readRun(
  services: ApiServices,
  tenant: string,
  runId: string,
): Promise<{ view: RunView; placement: RunPlacement; client: RunHandle }> {
  const { client, entry, placement } = await findTenantRun(services, tenant, runId);
  const view = await currentView(runId, client, entry);
  // Only an ended run can have been restarted or forked (a live one is refused, run_active): a live
  // run's read stays at its object, with no D1 round trip.
  const links = isEndedStatus(view.status) ? await linkedRuns(services, tenant, runId) : {};
  return { view: { ...view, ...links }, placement, client };
}

/** The run at its object; a run only the index knows (an anchor) as its row. */
async function currentView(runId: string, client: RunHandle, entry: RunIndexEntry | null): Promise<RunView> {
  if (!entry) return client.status();
  // A minted anchor (or one cancelled before any start) has no run object: the index row is all there is.
  const live = entry.status === "minted" ? null : await client.status();
  if (live && !(live.eventCount === 0 && entry.triggerKind === "anchor")) return live;
  return { runId, status: entry.status, workflowId: entry.workflowId, tenant: entry.tenant, eventCount: 0, createdAt: entry.createdAt };
}

/** The restarts and forks started from a run (its log cannot list them once it has ended). */
async function linkedRuns(services: ApiServices, tenant: string, runId: string): Promise<Pick<RunView, "restarts" | "forks">> {
  const links = await services.runLinks.of(tenant, runId);
  const restarts = links.filter((l) => l.relation === "restart").map((l) => l.runId);
  const forks = links.filter((l) => l.relation === "fork").map((l) => l.runId);
  return { ...(restarts.length > 0 ? { restarts } : {}), ...(forks.length > 0 ? { forks } : {}) };
}

/**
 * A page of a tenant's run's events: `seq > after`, at most `limit` (default 100), `type` read by
 * `parseEventTypeFilter`; `nextAfter` is the last seq when the page is full, else null.
 */
export async function listTenantEvents(
  services: ApiServices,
  tenant: string,
  runId: string,
  query: { readonly after?: number | undefined; readonly limit?: number | undefined; readonly type?: string | undefined },
) {
  const limit = query.limit ?? 100;
  // Validated before the run is looked up: an unknown type is the client's mistake, whatever the run.
  const types = parseEventTypeFilter(query.type);
  const { client } = await findTenantRun(services, tenant, runId);
  const events = await client.events({ after: query.after ?? 0, limit, ...(types ? { types } : {}) });
  const last = events.at(-1);
  return { events, nextAfter: events.length === limit && last ? last.seq : null };
}

/** Cancels a tenant's run; a run that has ended is answered unchanged. */
export async function cancelTenantRun(services: ApiServices, tenant: string, runId: string, reason: string): Promise<RunView> {
  const { client, entry } = await findTenantRun(services, tenant, runId);
  // A minted anchor has no run object yet: cancelling it ends it in the index, and a later start is refused.
  if (entry?.status === "minted" && (await services.runs.cancelAnchor(entry.tenant, runId, services.clock.now()))) {
    return { runId, status: "cancelled", workflowId: entry.workflowId, tenant: entry.tenant, eventCount: 0, createdAt: entry.createdAt };
  }
  return client.cancel(reason);
}

export type ListRunsQuery = {
  readonly workflow?: string | undefined;
  readonly status?: RunStatus | undefined;
  readonly waitReason?: WaitReason | undefined;
  /** `key:value` filters (`?tag=` repeated): a run must carry every one. */
  readonly tag?: string | readonly string[] | undefined;
  readonly limit?: number | undefined;
  readonly cursor?: string | undefined;
};

/** One page of a tenant's runs, newest first, and the cursor of the next. */
export async function listTenantRuns(services: ApiServices, tenant: string, query: ListRunsQuery) {
  const limit = query.limit ?? 50;
  const before = query.cursor ? decodeCursor(query.cursor) : undefined;
  const tags = tagFilters(query.tag);
  const rows = await services.runs.list({
    tenant,
    ...(query.workflow ? { workflowId: query.workflow } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...(query.waitReason ? { waitReason: query.waitReason } : {}),
    ...(tags.length > 0 ? { tags } : {}),
    ...(before ? { before } : {}),
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  // A run queued by flow control shows its key and position, which only its object knows now.
  const queues = await Promise.all(
    page.map((r) =>
      r.status === "waiting" && (r.waitReason === "concurrency" || r.waitReason === "throttle")
        ? services.runHandles
            .open(r.tenant, r.runId, r.placement)
            .status()
            .then((v) => v.queue)
            .catch(() => undefined)
        : undefined,
    ),
  );
  return {
    runs: page.map((r, i) => ({
      runId: r.runId,
      workflowId: r.workflowId,
      status: r.status,
      waitReason: r.waitReason ?? null,
      triggerKind: r.triggerKind,
      versionId: r.versionId,
      causeCode: r.causeCode,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      ...(queues[i] ? { queue: queues[i] } : {}),
      ...(r.tags ? { tags: r.tags } : {}),
      ...(r.progress ? { progress: r.progress } : {}),
    })),
    nextCursor: rows.length > limit && last ? encodeCursor(last.createdAt, last.runId) : null,
  };
}

/** The `?tag=key:value` filters of a list; 400 `invalid_request` for one that is no `key:value`. */
function tagFilters(given: string | readonly string[] | undefined): { key: string; value: string }[] {
  const all = given === undefined ? [] : typeof given === "string" ? [given] : given;
  return all.map((filter, i) => {
    const parsed = parseTagFilter(filter);
    if (!parsed)
      throw new ApiError(
        "invalid_request",
        `tag "${filter}" is not key:value (a key of A-Z a-z 0-9 _ . -, a value of at most 64 characters)`,
        {
          findings: [{ severity: "error", code: "tag.invalid", path: `$.tag[${i}]`, message: "expected key:value" }],
        },
      );
    return parsed;
  });
}

/** The API's run: the object's view without internal fields. */
export function toRun(view: RunView): Omit<RunView, "tenant"> {
  const { tenant: _tenant, ...run } = view;
  return run;
}

/** A page position as the API hands it out (`nextCursor`): opaque to callers. */
export function encodeCursor(createdAt: number, runId: string): string {
  return btoa(JSON.stringify([createdAt, runId])).replaceAll("=", "");
}

/** The page position a `cursor` names; 400 `invalid_cursor` when it is not one this API returned. */
export function decodeCursor(cursor: string): { createdAt: number; runId: string } {
  try {
    const [createdAt, runId] = JSON.parse(atob(cursor)) as [unknown, unknown];
    if (typeof createdAt === "number" && typeof runId === "string") return { createdAt, runId };
  } catch {
    // fall through to the error below
  }
  throw new ApiError("invalid_cursor", "The cursor is not one this API returned");
}
