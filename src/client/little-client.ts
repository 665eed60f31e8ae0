import type {
  ApprovalDecision,
  BulkActionRequest,
  BulkJobResponse,
  CreatedToken,
  CreateTokenBody,
  DecisionResponse,
  DeleteRunResponse,
  EventsPage,
  ForkRequest,
  ForkResponse,
  ListEventsQuery,
  ListRunsQuery,
  LwirValidation,
  OccurrenceResponse,
  ResponseOf,
  RestartResponse,
  RunComparison,
  RunEvent,
  RunResponse,
  RunsPage,
  SendSignalResponse,
  SignalsList,
  Token,
  WorkflowVersion,
} from "./api-types.ts";
import { type EventStreamOptions, followEvents, followRunStream, type RunStreamItem } from "./event-stream.ts";
import { type CallOptions, type FetchLike, segment, Transport } from "./transport.ts";

export type ClientOptions = {
  /** Where the Worker answers, e.g. `https://little.example.workers.dev` (a path prefix is kept). */
  readonly baseUrl: string;
  /** A bearer token (`little token create`); omit only for a Worker that needs none. */
  readonly token?: string | undefined;
  /** Defaults to the global fetch; pass a service binding's to call a Worker of the same account. */
  readonly fetch?: FetchLike | undefined;
  /** Per-request timeout in milliseconds (default 30 000; a `wait` adds its own seconds). */
  readonly timeoutMs?: number | undefined;
  /** Headers sent with every request. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
};

export type StartOptions = CallOptions & {
  /** Choose the run id (per tenant): starting it again returns that run. */
  readonly runId?: string;
  /** Retries with the same key return the same run (409 `idempotency_conflict` for other input). */
  readonly idempotencyKey?: string;
  /** Hold the answer up to this many seconds (at most 60) until the run ends. */
  readonly wait?: number;
  /** Where to create the run object (a Durable Object location hint); default: near the caller. */
  readonly location?: "wnam" | "enam" | "sam" | "weur" | "eeur" | "apac" | "oc" | "afr" | "me";
  /** A W3C `traceparent` (your current span): the run's trace becomes its child (docs/observability.md). */
  readonly traceparent?: string;
  /** At most 16 tags (`key` → `value`, each ≤ 64 characters): filter with `listRuns({ tag: ["key:value"] })`. */
  readonly tags?: Readonly<Record<string, string>>;
};

export type TriggerOptions = CallOptions & { readonly idempotencyKey?: string; readonly wait?: number };

/** A wait holds the request this long on the server: the timeout grows by it. */
const waitTimeout = (options: { wait?: number; timeoutMs?: number }) =>
  options.timeoutMs ?? (options.wait ? (options.wait + 30) * 1000 : undefined);
const withTimeout = (options: CallOptions, timeoutMs: number | undefined) =>
  timeoutMs === undefined ? options : { ...options, timeoutMs };

/**
 * A typed client of the /v1 API (docs/client.md), for Node, browsers and Workers: fetch only.
 * Each method is one operation of /v1/openapi.json and resolves to its JSON body, typed from the
 * document; every failure is a `LittleClientError` with the API's stable code.
 *
 * @example
 * const client = createClient({ baseUrl: "http://localhost:8787", token: process.env.LITTLE_TOKEN });
 * const { run } = await client.startRun("support.summarize-ticket", { ticketId: "T-1", transcript: "…" });
 * for await (const event of client.events(run.runId)) console.log(event.seq, event.type);
 */
export class LittleClient {
  readonly transport: Transport;

  constructor(options: ClientOptions) {
    this.transport = new Transport(options);
  }

  /** Starts a run of a registered workflow (`startRun`); with `wait`, answers when it ended or the wait ran out. */
  startRun(workflowId: string, input: unknown, options: StartOptions = {}): Promise<RunResponse> {
    return this.transport.json<RunResponse>({
      ...withTimeout(options, waitTimeout(options)),
      method: "POST",
      path: `/v1/workflows/${segment(workflowId)}/runs`,
      query: { wait: options.wait },
      headers: { "idempotency-key": options.idempotencyKey, traceparent: options.traceparent },
      body: {
        input,
        ...(options.runId !== undefined ? { runId: options.runId } : {}),
        ...(options.location ? { location: options.location } : {}),
        ...(options.tags ? { tags: options.tags } : {}),
      },
    });
  }

  /** Runs a given LWIR document without a planner (`startLwirRun`); it binds to the workflow its `metadata.name` names. */
  startLwirRun(lwir: unknown, input: unknown, options: Omit<StartOptions, "location"> = {}): Promise<RunResponse> {
    return this.transport.json<RunResponse>({
      ...withTimeout(options, waitTimeout(options)),
      method: "POST",
      path: "/v1/lwir/runs",
      query: { wait: options.wait },
      headers: { "idempotency-key": options.idempotencyKey },
      body: {
        lwir,
        input,
        ...(options.runId !== undefined ? { runId: options.runId } : {}),
        ...(options.tags ? { tags: options.tags } : {}),
      },
    });
  }

  /** A run as it is now: status, version, output or cause, usage (`getRun`). */
  getRun(runId: string, options: CallOptions = {}): Promise<RunResponse> {
    return this.transport.json<RunResponse>({ ...options, method: "GET", path: `/v1/runs/${segment(runId)}` });
  }

  /** One page of the tenant's runs, newest first (`listRuns`); pass `nextCursor` back as `cursor`. */
  listRuns(query: ListRunsQuery = {}, options: CallOptions = {}): Promise<RunsPage> {
    return this.transport.json<RunsPage>({ ...options, method: "GET", path: "/v1/runs", query });
  }

  /** Cancels a run (`cancelRun`); a run that has ended is answered unchanged. */
  cancel(runId: string, options: CallOptions = {}): Promise<RunResponse> {
    return this.transport.json<RunResponse>({ ...options, method: "POST", path: `/v1/runs/${segment(runId)}/cancel`, body: {} });
  }

  /**
   * Restarts an ended run from a step (`restartRun`; default its first failed step): a new run of
   * the same version that reuses the recorded results of every step not downstream of it.
   */
  restartRun(runId: string, options: TriggerOptions & { readonly fromStep?: string } = {}): Promise<RestartResponse> {
    return this.transport.json<RestartResponse>({
      ...withTimeout(options, waitTimeout(options)),
      method: "POST",
      path: `/v1/runs/${segment(runId)}/restart`,
      query: { wait: options.wait },
      headers: { "idempotency-key": options.idempotencyKey },
      body: options.fromStep !== undefined ? { fromStep: options.fromStep } : {},
    });
  }

  /** Forks an ended run with edits (`forkRun`): steps whose content key is unchanged reuse its results; `dryRun` answers the plan only. */
  forkRun(runId: string, edits: ForkRequest, options: TriggerOptions & { readonly dryRun?: boolean } = {}): Promise<ForkResponse> {
    return this.transport.json<ForkResponse>({
      ...withTimeout(options, waitTimeout(options)),
      method: "POST",
      path: `/v1/runs/${segment(runId)}/fork`,
      query: { wait: options.wait, ...(options.dryRun ? { dryRun: "true" } : {}) },
      headers: { "idempotency-key": options.idempotencyKey },
      body: edits,
    });
  }

  /** Two runs step by step (`compareRuns`): reused or re-run, outputs with a JSON diff, duration, tokens and cost. */
  compareRuns(runId: string, otherRunId: string, options: CallOptions = {}): Promise<RunComparison> {
    return this.transport.json<RunComparison>({
      ...options,
      method: "GET",
      path: `/v1/runs/${segment(runId)}/compare/${segment(otherRunId)}`,
    });
  }

  /**
   * Deletes a run and all its data (`deleteRun`, scope `runs:delete`); `cancel: true` cancels a run
   * that has not ended first (else 409 `run_active`). Afterwards every call about it is 410 `run_deleted`.
   */
  deleteRun(runId: string, options: CallOptions & { readonly cancel?: boolean } = {}): Promise<DeleteRunResponse> {
    const { cancel, ...call } = options;
    return this.transport.json<DeleteRunResponse>({
      ...call,
      method: "DELETE",
      path: `/v1/runs/${segment(runId)}`,
      ...(cancel ? { query: { cancel: "true" } } : {}),
    });
  }

  /** Starts a bulk job (`startBulkAction`): `cancel` or `delete` every run the filter matches; `dryRun` only counts. */
  startBulkAction(request: BulkActionRequest, options: CallOptions = {}): Promise<BulkJobResponse> {
    return this.transport.json<BulkJobResponse>({ ...options, method: "POST", path: "/v1/runs/bulk", body: request });
  }

  /** A bulk job's progress (`getBulkAction`): matched, done, failed and each failure's cause. */
  getBulkAction(jobId: string, options: CallOptions = {}): Promise<BulkJobResponse> {
    return this.transport.json<BulkJobResponse>({ ...options, method: "GET", path: `/v1/runs/bulk/${segment(jobId)}` });
  }

  /** Pauses a run (`pauseRun`): nothing new starts until {@link resumeRun}; calls in flight finish. Idempotent; an ended run is `run_ended`. */
  pauseRun(runId: string, options: CallOptions = {}): Promise<RunResponse> {
    return this.transport.json<RunResponse>({ ...options, method: "POST", path: `/v1/runs/${segment(runId)}/pause`, body: {} });
  }

  /** Resumes a paused run (`resumeRun`); a run that is not paused is answered unchanged. */
  resumeRun(runId: string, options: CallOptions = {}): Promise<RunResponse> {
    return this.transport.json<RunResponse>({ ...options, method: "POST", path: `/v1/runs/${segment(runId)}/resume`, body: {} });
  }

  /** One page of a run's logged events (`listRunEvents`); `type` filters (`harness.*`). */
  listEvents(runId: string, query: ListEventsQuery = {}, options: CallOptions = {}): Promise<EventsPage> {
    return this.transport.json<EventsPage>({ ...options, method: "GET", path: `/v1/runs/${segment(runId)}/events`, query });
  }

  /**
   * The run's events as they happen (`streamRunEvents`), each once and in order, until its terminal
   * event; a dropped connection resumes with `Last-Event-ID`. Break out of the loop, or abort
   * `signal`, to stop early.
   */
  events(runId: string, options: EventStreamOptions = {}): AsyncGenerator<RunEvent, void, undefined> {
    const token = options.token;
    return followEvents(this.transport, runId, async () => (await this.getRun(runId, token ? { token } : {})).run.status, options);
  }

  /**
   * The run's events and its models' output as it is written (`streamRun`): `{ type: "event", event }`
   * as {@link events} yields them, and `{ type: "delta", delta }` while a model call is in flight.
   * Keep each call's text per channel as `whole = whole.slice(0, delta.offset) + delta.text`.
   */
  streamRun(runId: string, options: EventStreamOptions = {}): AsyncGenerator<RunStreamItem, void, undefined> {
    const token = options.token;
    const status = async () => (await this.getRun(runId, token ? { token } : {})).run.status;
    return followRunStream(this.transport, `/v1/runs/${segment(runId)}/stream`, status, options);
  }

  /** Queues an occurrence of a section run (`triggerRun`). */
  trigger(runId: string, input: unknown, options: TriggerOptions = {}): Promise<OccurrenceResponse> {
    return this.transport.json<OccurrenceResponse>({
      ...withTimeout(options, waitTimeout(options)),
      method: "POST",
      path: `/v1/runs/${segment(runId)}/triggers`,
      query: { wait: options.wait },
      headers: { "idempotency-key": options.idempotencyKey },
      body: { input },
    });
  }

  /** The run's tool calls held for approval, with the hash of their arguments (`listApprovals`). */
  listApprovals(runId: string, options: CallOptions = {}): Promise<ResponseOf<"listApprovals">> {
    return this.transport.json({ ...options, method: "GET", path: `/v1/runs/${segment(runId)}/approvals` });
  }

  /** Approves or denies a held tool call (`decideApproval`); `argsHash` must be the one `listApprovals` showed. */
  decideApproval(runId: string, approvalId: string, decision: ApprovalDecision, options: CallOptions = {}): Promise<DecisionResponse> {
    return this.transport.json<DecisionResponse>({
      ...options,
      method: "POST",
      path: `/v1/runs/${segment(runId)}/approvals/${segment(approvalId)}`,
      body: decision,
    });
  }

  /**
   * Sends a signal to a run (`sendSignal`): durable in the run's log when this resolves; a
   * `wait.signal` naming it takes it. `id` makes a resend idempotent (one delivery, the same answer).
   *
   * @example
   * await client.sendSignal(runId, "manager.decision", { approved: true, note: "fine" }, { id: "decision-1" });
   */
  sendSignal(
    runId: string,
    name: string,
    payload: unknown,
    options: CallOptions & { readonly id?: string } = {},
  ): Promise<SendSignalResponse> {
    const { id, ...call } = options;
    return this.transport.json<SendSignalResponse>({
      ...call,
      method: "POST",
      path: `/v1/runs/${segment(runId)}/signals`,
      body: { name, payload, ...(id !== undefined ? { id } : {}) },
    });
  }

  /** A run's signals and what its open waits take, with each signal's payload schema (`listSignals`). */
  listSignals(runId: string, options: CallOptions = {}): Promise<SignalsList> {
    return this.transport.json<SignalsList>({ ...options, method: "GET", path: `/v1/runs/${segment(runId)}/signals` });
  }

  /**
   * A page of a section workflow's unfinished runs, each marked `stale` when its definition is no
   * longer the live one (`listSections`); pass `nextCursor` back as `cursor` for the next page.
   */
  listSections(
    workflowId: string,
    query: { stale?: boolean; limit?: number; cursor?: string } = {},
    options: CallOptions = {},
  ): Promise<ResponseOf<"listSections">> {
    const stale = query.stale === undefined ? undefined : String(query.stale);
    const limit = query.limit === undefined ? undefined : String(query.limit);
    return this.transport.json({
      ...options,
      method: "GET",
      path: `/v1/workflows/${segment(workflowId)}/sections`,
      query: { stale, limit, cursor: query.cursor },
    });
  }

  /** Ends a waiting section (`section_superseded`) and queues its pending occurrences in `into` (`supersedeSection`). */
  supersede(runId: string, into: string, options: CallOptions = {}): Promise<ResponseOf<"supersedeSection">> {
    return this.transport.json({ ...options, method: "POST", path: `/v1/runs/${segment(runId)}/supersede`, body: { into } });
  }

  /** The workflows this Worker runs, with their definition hashes and model readiness (`listWorkflows`). */
  listWorkflows(options: CallOptions = {}): Promise<ResponseOf<"listWorkflows">> {
    return this.transport.json({ ...options, method: "GET", path: "/v1/workflows" });
  }

  /**
   * A workflow's flow-control keys with their running and queued runs (`listWorkflowQueues`).
   *
   * @example
   * const { queues } = await client.listWorkflowQueues("support.reply-draft");
   * // [{ kind: "concurrency", index: 0, key: "c-42", limit: 2, running: 2, queued: 5, updatedAt }]
   */
  listWorkflowQueues(workflowId: string, options: CallOptions = {}): Promise<ResponseOf<"listWorkflowQueues">> {
    return this.transport.json({ ...options, method: "GET", path: `/v1/workflows/${segment(workflowId)}/queues` });
  }

  /** A WorkflowVersion with its LWIR and locks, by `wfver_` id or full hash (`getVersion`). */
  getVersion(versionId: string, options: CallOptions = {}): Promise<WorkflowVersion> {
    return this.transport.json<WorkflowVersion>({ ...options, method: "GET", path: `/v1/versions/${segment(versionId)}` });
  }

  /**
   * Validates an LWIR document (`validateLwir`): `{ valid, findings, … }`; with `workflow`, also
   * the binding pass against that workflow's definition, in one pass (`?workflow=`).
   */
  validateLwir(lwir: unknown, options: CallOptions & { readonly workflow?: string } = {}): Promise<LwirValidation> {
    const { workflow, ...call } = options;
    return this.transport.json<LwirValidation>({ ...call, method: "POST", path: "/v1/lwir/validate", query: { workflow }, body: lwir });
  }

  /** Creates a tenant token (`createToken`); needs the admin token as `options.token`. The secret is shown once. */
  createToken(body: CreateTokenBody, options: CallOptions = {}): Promise<CreatedToken> {
    return this.transport.json<CreatedToken>({ ...options, method: "POST", path: "/v1/tokens", body });
  }

  /** The caller's tenant's tokens, or (with the admin token) `tenant`'s (`listTokens`); never their secrets. */
  listTokens(query: { tenant?: string } = {}, options: CallOptions = {}): Promise<ResponseOf<"listTokens">> {
    return this.transport.json({ ...options, method: "GET", path: "/v1/tokens", query });
  }

  /** Revokes a token by its `tok_` id (`revokeToken`): it answers 401 `token_revoked` from then on. */
  revokeToken(tokenId: string, options: CallOptions = {}): Promise<Token> {
    return this.transport.json<Token>({ ...options, method: "DELETE", path: `/v1/tokens/${segment(tokenId)}` });
  }
}

/**
 * A client of the /v1 API.
 *
 * @example
 * const client = createClient({ baseUrl: "https://little.example.workers.dev", token });
 * const { run } = await client.startRun("support.summarize-ticket", input, { wait: 30 });
 */
export function createClient(options: ClientOptions): LittleClient {
  return new LittleClient(options);
}
