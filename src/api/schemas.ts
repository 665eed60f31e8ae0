import { z } from "@hono/zod-openapi";
import { CALLER_RUN_ID_DESCRIPTION } from "../engine/runs/derived-run-ids.ts";
import { RUN_EVENT_PAYLOAD_SCHEMAS } from "../ports/events/run-event-schema.ts";
import { RUN_EVENT_TYPES } from "../ports/run-event-types.ts";
import { RUN_STATUSES, WAIT_REASONS } from "../ports/run-status.ts";

/** Shapes of the /v1 API, shared by validation and the OpenAPI document. */

export const ErrorBody = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: "run_not_found" }),
      message: z.string(),
      findings: z
        .array(z.object({ severity: z.enum(["error", "warning"]), code: z.string(), path: z.string(), message: z.string() }))
        .optional(),
    }),
  })
  .openapi("Error");

/** The run statuses, from their one list (ports/run-status.ts). */
export { RUN_STATUSES, WAIT_REASONS };

export const Usage = z
  .object({
    inputTokens: z.number(),
    outputTokens: z.number(),
    totalTokens: z.number(),
    costUsd: z.number().nullable().openapi({ description: "USD from the models' declared pricing; null when a model is unpriced" }),
  })
  .openapi("Usage");

export const Occurrences = z
  .object({
    total: z.number(),
    completed: z.number(),
    failed: z.number(),
    pending: z.number(),
    latest: z.array(
      z.object({
        occurrenceId: z.string(),
        status: z.string(),
        trigger: z.object({ kind: z.string(), id: z.string().optional() }),
        output: z.unknown().optional(),
        cause: z.object({ code: z.string(), message: z.string() }).optional(),
      }),
    ),
  })
  .openapi("Occurrences");

/** A signal sent to a run (`POST /v1/runs/{runId}/signals`). */
export const Signal = z
  .object({
    id: z.string(),
    name: z.string(),
    receivedAt: z.string().openapi({ description: "When the run's log took it (ISO-8601)" }),
    consumed: z.boolean().openapi({
      description:
        "Whether a wait.signal step has taken it (else it is buffered for the first wait that names it). In a send's answer, true means the run's waiting step took it in that call: the step has ended",
    }),
    consumedBy: z.string().optional().openapi({ description: "The step path of the wait that took it" }),
    payload: z.unknown().optional(),
  })
  .openapi("Signal");

/** A signal an open wait takes. */
export const AwaitedSignal = z
  .object({ name: z.string(), description: z.string(), schema: z.unknown(), stepPath: z.string() })
  .openapi("AwaitedSignal");
export const ChildRun = z
  .object({
    runId: z.string(),
    workflowId: z.string(),
    stepPath: z.string(),
    attempt: z.number().int(),
    status: z.enum(["running", "completed", "failed", "cancelled"]),
    cause: z.object({ code: z.string(), message: z.string() }).optional(),
  })
  .openapi("ChildRun");
/** Where a queued run waits (flow control). */
export const QueuePlace = z
  .object({
    kind: z.enum(["concurrency", "throttle"]),
    gate: z.number().int(),
    key: z.string(),
    position: z.number().int().nullable(),
    scope: z.literal("tenant").optional().openapi({
      description:
        "`tenant`: the run waits for one of its tenant's start quotas (`concurrency`: LITTLE_QUOTA_CONCURRENT_RUNS, `throttle`: LITTLE_QUOTA_STARTS_PER_MINUTE), not its workflow's flow control. docs/api.md, \"Quotas\".",
    }),
  })
  .openapi("QueuePlace");

/** Who paused a run, and when (epoch ms). */
export const RunPaused = z.object({ by: z.string(), at: z.number() }).openapi("RunPaused");

/** A run's tags, as its start gave them (docs/runs.md, "Tags"). */
export const RunTags = z.record(z.string(), z.string()).openapi("RunTags", {
  description: "The start's tags (`key` → `value`): filter with `GET /v1/runs?tag=key:value`",
});

/** How far a run's steps are (docs/runs.md, "Progress"). */
export const RunProgress = z
  .object({
    stepsTotal: z.number().int().nullable().openapi({
      description:
        "Steps of the version the run executes (its current cycle's), a fan-out's branches counted once they are known; null before a plan exists",
    }),
    stepsEnded: z.number().int().openapi({ description: "Of those, the steps that succeeded, failed for good or were skipped" }),
  })
  .openapi("RunProgress");

export const Run = z
  .object({
    runId: z.string(),
    workflowId: z.string().nullable(),
    status: z.enum(RUN_STATUSES),
    waitReason: z.enum(WAIT_REASONS).optional().openapi({
      description:
        "Why a `waiting` run waits (absent otherwise): `approval` (a tool call awaits a decision), `sleep` (a step's retry backoff, or a `wait.sleep` step), `trigger` (a section awaits its next trigger), `signal` (a `wait.signal` step awaits a signal: see `awaitingSignals`), `child` (a workflow.run step awaits the child run it started), `concurrency` / `throttle` (queued behind its key's flow-control limit: see `queue`), `rate_limit` (a model call waits for its model's shared limit).",
    }),
    waitingUntil: z.number().optional().openapi({
      description:
        "When the wait ends by itself or expires (epoch ms): a sleep's retry or wake-up, the earliest pending approval's expiry, a signal wait's timeout.",
    }),
    versionId: z.string().optional(),
    output: z.unknown().optional(),
    cause: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }).optional(),
    usage: Usage.optional(),
    eventCount: z.number(),
    createdAt: z.number().nullable(),
    input: z.unknown().optional(),
    occurrences: Occurrences.optional().openapi({ description: "A section run's occurrences" }),
    approvals: z.array(z.unknown()).optional().openapi({ description: "Tool calls that asked for approval" }),
    offlineModels: z.array(z.string()).optional().openapi({
      description:
        "Models (provider/model) the deterministic offline model answered for: LITTLE_MODELS=auto fell back for lack of a key, or the Worker runs offline. Absent when every answer came from a real provider.",
    }),
    placement: z
      .object({ jurisdiction: z.string().optional(), locationHint: z.string().optional(), jurisdictionEnforced: z.boolean() })
      .optional(),
    outputError: z
      .object({ code: z.enum(["output_missing", "output_integrity"]), message: z.string() })
      .optional()
      .openapi({
        description:
          "A completed run whose output, stored by reference in R2, cannot be read back: its blob is gone (`output_missing`) or no longer matches its digest (`output_integrity`). `output` is then absent.",
      }),
    signals: z
      .array(z.lazy(() => Signal))
      .optional()
      .openapi({ description: "Signals sent to the run, in arrival order" }),
    awaitingSignals: z
      .array(z.lazy(() => AwaitedSignal))
      .optional()
      .openapi({
        description:
          "While a `wait.signal` step waits: the signals it takes, each with its payload's JSON Schema (enough to render a form)",
      }),
    parent: z.object({ runId: z.string(), stepPath: z.string() }).optional().openapi({
      description: "A child run: the run whose workflow.run step started it, and that step's path.",
    }),
    children: z
      .array(ChildRun)
      .optional()
      .openapi({ description: "The child runs this run's workflow.run steps started, in start order." }),
    queue: QueuePlace.optional().openapi({
      description:
        "A run queued by flow control (`waitReason` `concurrency` or `throttle`): the limit it waits for (`gate`: its index in the definition's list), its key, and its place in the key's queue (1 = next; null when the limiter could not be asked); `scope` `tenant` when it waits for its tenant's start quota. docs/flow-control.md.",
    }),
    paused: RunPaused.optional().openapi({
      description: 'A `paused` run: who paused it and when (docs/runs.md, "Pause and resume"). Absent otherwise.',
    }),
    tags: RunTags.optional(),
    progress: RunProgress.optional(),
    traceId: z.string().optional().openapi({
      description:
        "The run's OpenTelemetry trace id (32 hex digits): the caller's when the start carried a W3C `traceparent`, else derived from the run id. Spans go to `LITTLE_OTLP_ENDPOINT` (docs/observability.md).",
    }),
    restartOf: z.object({ runId: z.string(), fromStep: z.string().optional() }).optional().openapi({
      description: "A restart (`POST /v1/runs/{runId}/restart`): the run it restarts and the first step it ran afresh.",
    }),
    forkOf: z.object({ runId: z.string() }).optional().openapi({ description: "A fork (`POST /v1/runs/{runId}/fork`): the run it forks." }),
    restarts: z.array(z.string()).optional().openapi({ description: "The restarts of this run, oldest first." }),
    forks: z.array(z.string()).optional().openapi({ description: "The forks of this run, oldest first." }),
    rateLimited: z
      .array(z.object({ stepPath: z.string(), providerId: z.string(), modelId: z.string(), until: z.number() }))
      .optional()
      .openapi({
        description:
          'While `waitReason` is `rate_limit`: each step whose model call waits for its model\'s shared limit (docs/flow-control.md, "Model limits"), and when (epoch ms) the limiter expects to let it go.',
      }),
  })
  .openapi("Run");

export const RunLinks = z.object({ self: z.string(), events: z.string(), stream: z.string() }).openapi("RunLinks");
export const RunResponse = z.object({ run: Run, links: RunLinks }).openapi("RunResponse");
export const OccurrenceResponse = z
  .object({ occurrenceId: z.string(), created: z.boolean(), run: Run, links: RunLinks })
  .openapi("OccurrenceResponse");

export const RunSummary = z
  .object({
    runId: z.string(),
    workflowId: z.string(),
    status: z.enum(RUN_STATUSES),
    waitReason: z.enum(WAIT_REASONS).nullable().openapi({ description: "Why a `waiting` run waits; null otherwise." }),
    triggerKind: z.string(),
    versionId: z.string().nullable(),
    causeCode: z.string().nullable(),
    createdAt: z.number(),
    updatedAt: z.number(),
    queue: QueuePlace.optional().openapi({
      description: "A run queued by flow control: its key and place in the key's queue (docs/flow-control.md)",
    }),
    tags: RunTags.optional(),
    progress: RunProgress.optional().openapi({ description: "As of the run's last index write (its last status change)" }),
  })
  .openapi("RunSummary");

/** The envelope of one stored event around the payload schema of its type (ports/events, the union's one schema). */
function eventSchema<K extends keyof typeof RUN_EVENT_PAYLOAD_SCHEMAS>(type: K) {
  return z.object({
    seq: z.number().int(),
    runId: z.string(),
    type: z.literal(type),
    at: z.number(),
    payload: RUN_EVENT_PAYLOAD_SCHEMAS[type],
  });
}

type EventSchema = ReturnType<typeof eventSchema<keyof typeof RUN_EVENT_PAYLOAD_SCHEMAS>>;

/**
 * One event of a run's log, discriminated on `type`. The envelope is built here, with the API's
 * zod (the one `.openapi` extends), around the payload schemas the event logs check rows with.
 */
export const RunEventSchema = z
  .discriminatedUnion("type", RUN_EVENT_TYPES.map(eventSchema) as unknown as [EventSchema, ...EventSchema[]])
  .openapi("RunEvent");

export const LOCATION_HINTS = ["wnam", "enam", "sam", "weur", "eeur", "apac", "oc", "afr", "me"] as const;

export const StartRunBody = z
  .object({
    input: z.unknown().openapi({ description: "The run input; validated against the workflow's input schema." }),
    runId: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/)
      .optional()
      .openapi({ description: CALLER_RUN_ID_DESCRIPTION }),
    location: z.enum(LOCATION_HINTS).optional().openapi({ description: "Where to create the run object; defaults to near the caller." }),
    tags: z.record(z.string(), z.string()).optional().openapi({
      description:
        "At most 16 tags, `key` → `value`: a key is 1–64 of `A-Z a-z 0-9 _ . -` (starting with a letter or digit), a value 0–64 characters; else 422 `run_tags_invalid`. Part of the idempotency comparison.",
    }),
  })
  .openapi("StartRun");

export const Finding = z
  .object({ severity: z.enum(["error", "warning"]), code: z.string(), path: z.string(), message: z.string() })
  .openapi("Finding");

/** An OpenAPI response with a JSON body. */
export const json = <T extends z.ZodType>(schema: T, description: string) => ({ content: { "application/json": { schema } }, description });

/** The error answers every authenticated route can give. */
export const commonErrors = {
  400: json(ErrorBody, "Bad request"),
  401: json(ErrorBody, "Missing, invalid, expired (token_expired) or revoked (token_revoked) token"),
  403: json(ErrorBody, "The token lacks the scope this route needs (insufficient_scope)"),
  404: json(ErrorBody, "Not found"),
};

/** A route about one run: also 410 once the run was deleted (`run_deleted`, docs/runs.md "Retention and deletion"). */
export const runErrors = {
  ...commonErrors,
  410: json(ErrorBody, "The run was deleted (`run_deleted`): its data is gone and its id is never reused"),
};
