/**
 * The /v1 API's types, generated from /v1/openapi.json by openapi-typescript: do not edit.
 * test/api/openapi.node.test.ts fails when they drift from the document; regenerate with
 * `npx vitest run --project node test/api/openapi.node.test.ts -u`.
 */
export interface paths {
    "/v1/runs/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel or delete every run that matches a filter (a bulk job)
         * @description Starts a job that walks the run index page by page and acts on each matching run once: `cancel` (scope runs:write) or `delete` (also runs:delete). `dryRun` counts what matches and does nothing. Follow the job with `GET /v1/runs/bulk/{jobId}`. Resumable after a crash; a run is never acted on twice.
         */
        post: operations["startBulkAction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/bulk/{jobId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A bulk job's progress: matched, done, failed and each failure's cause
         * @description The job as its object holds it now: `running` while it walks the index, `done` once every match was acted on (or, for a dry run, counted). Another tenant's job id is 404 `bulk_job_not_found`.
         */
        get: operations["getBulkAction"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{runId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a run: status, version, output or cause, usage
         * @description The run as its object sees it now: status, the version it was compiled to, output or cause, token usage and cost, a section's occurrences and pending approvals. Another tenant's run id is 404.
         */
        get: operations["getRun"];
        put?: never;
        post?: never;
        /**
         * Delete a run and all its data (scope runs:delete)
         * @description Purges the run's event log and storage, its blobs, its index and every row keyed by it, and its child runs, leaving a tombstone: afterwards every route for the run answers 410 `run_deleted`, and its id (or the Idempotency-Key that made it) never starts a run again. Only ended runs; `?cancel=true` cancels a live one first. A deletion interrupted by a crash is finished by the same request again (or by the cron).
         */
        delete: operations["deleteRun"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflows/{workflowId}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a run (the HTTP trigger)
         * @description Starts a run of a registered workflow. `Idempotency-Key` makes retries return the same run; `?wait=<seconds>` holds the answer until the run ends or the wait runs out.
         */
        post: operations["startRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the tenant's runs, newest first
         * @description From the run index, newest first. Filter by `workflow`, `status`, `waitReason` and `tag`; follow `nextCursor` (pass it as `cursor`) for the next page.
         */
        get: operations["listRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{runId}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a run (no effect on a run that has ended)
         * @description Cancels a run that has not ended (its next slice stops; no new model or tool call starts) and answers the run as it now is. A run that already ended is answered unchanged.
         */
        post: operations["cancelRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflows/{workflowId}/anchors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mint a run anchor: a run id reserved before its run starts
         * @description For a scheduler or a webhook that must name a run before it can start it. Start it later with `POST /v1/workflows/{workflowId}/runs` and this `runId`: the start adopts the anchor (one row, a guarded compare-and-set), and two concurrent starts yield one run. Another tenant cannot start it.
         */
        post: operations["mintRunAnchor"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{runId}/restart": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Restart an ended run from a step
         * @description Starts a new run of the same version and input. Steps not downstream of `fromStep` (default: the first failed step) take the original's recorded results (no model, tool or sandbox call; their `StepSucceeded` carries `reused: { runId, seq }`); `fromStep` and everything downstream run afresh. The new run has `restartOf`, the original lists it in `restarts`. `Idempotency-Key`: a retry returns the same run.
         */
        post: operations["restartRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{runId}/fork": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Fork an ended run with another input, model or prompt
         * @description Applies the edits to the run's LWIR (or takes the given `lwir`), validates, binds and locks it as a version (no planner) and starts a new run with `forkOf`. A step reuses the original's recorded result exactly when its content key is unchanged: its definition (kind, `with`, `output`, the slot's provider and model, the tool's descriptor hash, code file hashes) and its resolved inputs. The answer lists each step as reused or re-run, the estimated model usage (from the original's) and `sideEffects`: tool calls that would run again. `?dryRun=true` answers the plan and starts nothing.
         */
        post: operations["forkRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{runId}/compare/{otherRunId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Compare two runs step by step
         * @description Per step (of both versions): whether it was reused or ran, both outputs with a JSON diff, duration, tokens and cost, side by side. Any two of the tenant's runs; made for a fork or restart and its original.
         */
        get: operations["compareRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{runId}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause a run: nothing new starts until it is resumed
         * @description Appends `RunPaused` (with the token that asked): no new step, model call, tool call or section occurrence starts; calls in flight finish and are recorded. The run's status is `paused`. Its sleeps and signal timeouts keep their deadlines (docs/runs.md). Pausing a paused run answers it unchanged; an ended run is 409 `run_ended`.
         */
        post: operations["pauseRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{runId}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a paused run
         * @description Appends `RunResumed`: the run is driven again at once, from where it stopped (a sleep that passed while paused wakes now; queued triggers run in order). Resuming a run that is not paused answers it unchanged; an ended run is 409 `run_ended`.
         */
        post: operations["resumeRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{runId}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A page of a run's events
         * @description Events with `seq > after`, at most `limit`. `type` filters by comma-separated event types; an entry ending in `*` matches a prefix (`harness.*`). An entry that names no event type is 400 `event_type_unknown`.
         */
        get: operations["listRunEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{runId}/events/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A run's events as Server-Sent Events, live
         * @description Each message's `id` is the event's `seq`; reconnect with `Last-Event-ID` (or `?after=`) to resume. The stream ends after the run's terminal event.
         */
        get: operations["streamRunEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{runId}/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A run's events and its models' output as it is written, as Server-Sent Events
         * @description The events of `GET /v1/runs/{runId}/events/stream` (each message's `id` is the event's `seq`; reconnect with `Last-Event-ID` or `?after=` to resume; the stream ends after the terminal event), plus `event: delta` messages while an `ai.generate` step, a fixer or the planner has a model call in flight: `{ runId?, sessionId, callId, call, role, stepPath, channel, offset, text, partial? }`. `channel` is `text`, `reasoning` or `tool-input`; `offset` is where `text` starts in the channel's text so far (keep `whole = whole.slice(0, offset) + text`); `partial` is the object parsed from a structured answer's text so far. A delta has no `id`: a client that connects (or resumes) while a call is in flight first gets its text so far at offset 0. Deltas are not journaled: the call's `harness.model.responded` event carries the whole answer.
         */
        get: operations["streamRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The workflows this Worker runs, each with its definition hash
         * @description Each registered workflow with its definition hash, input schema, requested output, model slots with their readiness, tools and placement.
         */
        get: operations["listWorkflows"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/versions/{versionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A WorkflowVersion with its LWIR and locks
         * @description Versions are content-addressed and shared; a tenant sees a version only when one of its runs was compiled to it. Address it by its full hash (`sha256:…`, exact) or by its `wfver_` display id.
         */
        get: operations["getVersion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/definitions/{hash}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A definition's stored projection and its approval
         * @description Visible when a workflow of this Worker hashes to it or the tenant approved it. A known hash without a stored projection answers 409 `definition_projection_missing` with re-deploy guidance.
         */
        get: operations["getDefinition"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflows/{workflowId}/definition": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What a workflow launches as now: its live definition hash and projection
         * @description Also records the projection, so it can be approved before the first run.
         */
        get: operations["getWorkflowDefinition"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/definitions/{hash}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve a definition hash for this tenant
         * @description Idempotent. Workflows with `requireApproval` start only when their live hash is approved.
         */
        post: operations["approveDefinition"];
        /**
         * Revoke a definition's approval for this tenant
         * @description Removes the approval and its pin, audited (who, when). Unfinished runs started under it fail closed with `definition_approval_revoked` — waiting for a trigger, an approval or a retry, or mid-slice — and `requireApproval` workflows no longer start (403 `definition_not_approved`). 404 `definition_approval_not_found` when the hash is not approved.
         */
        delete: operations["revokeDefinitionApproval"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/definitions/{hash}/pin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pin a WorkflowVersion for an approved definition
         * @description Runs of the workflow whose live definition has this hash then execute the pinned version without a planner (the lock is still checked). The version must be one the tenant's runs produced, and must bind to this definition.
         */
        post: operations["pinVersion"];
        /**
         * Unpin: runs plan again
         * @description Removes the tenant's pin of this definition: later runs compile with the planner again. Runs already started keep their version.
         */
        delete: operations["unpinVersion"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/lwir/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Validate an LWIR document
         * @description Structural validation; with `?workflow=<id>` also the binding pass against that workflow's definition, in the same pass (every finding at once, as the planner's `submit_lwir` and `lwir-check` report them). Always 200 with `{ valid, findings }` for a JSON body.
         */
        post: operations["validateLwir"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/lwir/schema": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The JSON Schema of an LWIR document
         * @description Generated from the contract `validateLwir` enforces (JSON Schema 2020-12). It covers every field, step kind and range; the graph, templates, file digests and binding are checked by `POST /v1/lwir/validate`.
         */
        get: operations["getLwirSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/lwir/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run a given LWIR document, without a planner
         * @description Validates the document and binds it to the registered workflow its `metadata.name` names (400 `lwir_invalid` with findings otherwise), registers its version and executes it with the Worker's tools and models. Trigger kind `lwir`; events, status and replay as for any run. `Idempotency-Key` makes retries return the same run (409 `idempotency_conflict` when the key comes again with another document or input).
         */
        post: operations["startLwirRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a tenant's tokens (never their secrets)
         * @description A tenant token with the `admin` scope lists its own tenant's tokens; the admin token names the tenant with `?tenant=`. Revoked tokens are left out; expired ones are listed with their `expiresAt`.
         */
        get: operations["listTokens"];
        put?: never;
        /**
         * Create an API token for a tenant (admin token)
         * @description Needs `LITTLE_ADMIN_TOKEN` as the bearer: minting stays with the operator, so a leaked tenant token, once revoked, leaves nothing behind. The token is shown once; only its digest is stored. `expiresIn` (seconds) or `expiresAt` (epoch ms) sets an expiry; after it the token answers 401 `token_expired`.
         */
        post: operations["createToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tokens/{tokenId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a token
         * @description From this request on, the token answers 401 `token_revoked`. A tenant token with the `admin` scope revokes its own tenant's tokens (itself included); the admin token any tenant's. Revoking twice is a 404.
         */
        delete: operations["revokeToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/retention": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A tenant's retention: its override, else the Worker's default
         * @description How long the tenant's ended runs are kept before the cron deletes them: its override (`source: tenant`), else LITTLE_RETENTION_DAYS (`source: default`; null: for ever). The admin token for any tenant, a tenant token with the `admin` scope for its own.
         */
        get: operations["getRetention"];
        /**
         * Set (days, or null: keep for ever) or clear (`default: true`) a tenant's retention override
         * @description `{ "days": 30 }` keeps the tenant's ended runs 30 days; `{ "days": null }` keeps them for ever whatever LITTLE_RETENTION_DAYS says; `{ "default": true }` removes the override. Applied from the next cron tick.
         */
        put: operations["setRetention"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{runId}/triggers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Trigger a section run: queue an occurrence with this input
         * @description The run must be of a workflow with an `onTrigger` section and not have ended. `Idempotency-Key` makes retries return the same occurrence; `?wait=<seconds>` holds the answer until the queue is drained (the run waits again) or the run ends.
         */
        post: operations["triggerRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflows/{workflowId}/sections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A section workflow's unfinished runs, and which are stale after a redeploy
         * @description The tenant's section runs of this workflow that have not ended (newest first), each with the definition hash it locked and `stale: true` when that is no longer the live hash. `?stale=true` lists only those. Follow `nextCursor` (pass it as `cursor`) for the next page, as for `GET /v1/runs`. Supersede a stale one with `POST /v1/runs/{runId}/supersede`.
         */
        get: operations["listSections"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{runId}/supersede": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * End a waiting section and move its pending occurrences into another section
         * @description For a redeploy that changed the definition hash: `into` is a section of the same workflow under the live definition (started as any run is). The old section must have no occurrence running (409 `section_not_waiting`); it ends with `RunFailed { causeCode: "section_superseded" }`, and each occurrence it had queued and not started is queued in `into` under the trigger id `supersede:<runId>:<occurrenceId>`. Retrying with the same `into` adopts nothing twice.
         */
        post: operations["supersedeSection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{runId}/approvals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A run's approvals, pending ones as waiting_for_approval
         * @description Tool calls of the run that asked for approval (`needsApproval`), with their arguments and the hash a decision must quote; pending ones are `waiting_for_approval`.
         */
        get: operations["listApprovals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{runId}/approvals/{approvalId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve or deny a tool call
         * @description `argsHash` must be the hash of the arguments shown by GET …/approvals: a decision for other arguments is refused (409 `approval_args_mismatch`) and changes nothing. Deciding again the same way answers 200 with `created: false`.
         */
        post: operations["decideApproval"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/secrets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tenant's secret names (never values)
         * @description The tenant's secret names and when each was last set; never a value. `keyConfigured` says whether LITTLE_SECRETS_KEY is set.
         */
        get: operations["listSecrets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/secrets/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set a secret (encrypted at rest); the answer never contains the value
         * @description Stores (or replaces) a secret, encrypted with LITTLE_SECRETS_KEY. Workflows that bind it by name receive it at run time; the event log never shows it.
         */
        put: operations["putSecret"];
        post?: never;
        /**
         * Delete a secret
         * @description Deletes a secret. A start of a workflow that binds it is then refused (409 `secret_missing`) until it is set again.
         */
        delete: operations["deleteSecret"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/hooks/{workflowId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a run from a Standard Webhooks delivery
         * @description Only for a workflow whose definition declares `webhook: { secret: "<NAME>" }`; deliveries are signed with the Worker secret NAME (the shared `LITTLE_WEBHOOK_SECRET` stands in only for local development). Verifies `webhook-id`, `webhook-timestamp` and `webhook-signature` (HMAC-SHA256 over `id.timestamp.body`, `v1,` base64 signatures, several allowed for key rotation, 5-minute tolerance) on the raw bytes, read up to the body limit, before the body is parsed. The same `webhook-id` always yields the same run: 202 the first time, 200 after; sent to any other URL with the same secret it is 409 `webhook_replayed`.
         */
        post: operations["receiveWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/hooks/{workflowId}/runs/{runId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Trigger a section run from a Standard Webhooks delivery
         * @description Verified like `/hooks/{workflowId}`; the payload (mapped by the workflow's `webhook.input`) becomes the input of a new occurrence of the run's `onTrigger` section. The same `webhook-id` always yields the same occurrence: 202 the first time, 200 after; sent to any other URL with the same secret it is 409 `webhook_replayed`.
         */
        post: operations["receiveRunWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{runId}/signals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A run's signals, and what its waits take
         * @description Every signal sent to the run in arrival order, with whether a wait consumed it, and the signals its open `wait.signal` steps take with their payload schemas.
         */
        get: operations["listSignals"];
        put?: never;
        /**
         * Send a signal to a run
         * @description The signal is appended to the run's log and synced before this answers, so a 202 is never lost. A `wait.signal` step naming it takes it; sent before any wait, it is buffered and taken by the first wait that names it (first in, first out). Refusals store nothing: 422 `signal_unknown` (the workflow does not declare the name; the message lists the declared ones), 422 `signal_payload_invalid` (with findings), 409 `run_ended`, 409 `signal_id_conflict` (the id was sent with another name or payload).
         */
        post: operations["sendSignal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workflows/{workflowId}/queues": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A workflow's flow-control keys with their running and queued runs
         * @description Each key the tenant's runs of this workflow used, per limit (`concurrency`, `throttle`), with how many runs hold a slot or started in the window and how many wait. Counts come from each key's limiter as of its last change; a key whose queue drained stays listed with zero counts.
         */
        get: operations["listWorkflowQueues"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        BulkJob: {
            jobId: string;
            /** @enum {string} */
            action: "cancel" | "restart" | "delete";
            filter: {
                [key: string]: unknown;
            };
            dryRun: boolean;
            /** @enum {string} */
            state: "running" | "done";
            /** @description Runs the filter matched so far (all, once done) */
            matched: number;
            /** @description Runs acted on */
            done: number;
            failed: number;
            /** @description Each failed run and its cause (the first 100) */
            failures: {
                runId: string;
                code: string;
                message: string;
            }[];
            /** @description A dry run's first matched run ids (up to 100) */
            sample?: string[];
            createdAt: number;
            endedAt?: number;
        };
        Error: {
            error: {
                /** @example run_not_found */
                code: string;
                message: string;
                findings?: {
                    /** @enum {string} */
                    severity: "error" | "warning";
                    code: string;
                    path: string;
                    message: string;
                }[];
            };
        };
        BulkActionRequest: {
            /**
             * @description `restart` is not available yet (422 `bulk_action_unsupported`)
             * @enum {string}
             */
            action: "cancel" | "restart" | "delete";
            filter?: components["schemas"]["BulkFilter"];
            /** @description Count what matches (and list the first 100 ids); act on nothing */
            dryRun?: boolean;
        };
        BulkFilter: {
            workflowId?: string;
            /** @enum {string} */
            status?: "minted" | "pending" | "compiling" | "running" | "waiting" | "paused" | "completed" | "failed" | "cancelled";
            /** @enum {string} */
            waitReason?: "approval" | "sleep" | "trigger" | "signal" | "child" | "concurrency" | "throttle" | "rate_limit";
            /** @description `key:value`: only runs started with that tag (`GET /v1/runs?tag=`) */
            tag?: string;
            /** @description ISO-8601, or epoch milliseconds */
            createdAfter?: string | number;
            /** @description ISO-8601, or epoch milliseconds */
            createdBefore?: string | number;
        };
        DeletedRun: {
            runId: string;
            workflowId: string;
            /** @description ISO-8601 */
            deletedAt: string;
            /** @description Who deleted it: a token id (`tok_…`), `dev`, `admin`, `retention` or `bulk:<job id>` */
            by: string;
        };
        RunResponse: {
            run: components["schemas"]["Run"];
            links: components["schemas"]["RunLinks"];
        };
        Run: {
            runId: string;
            workflowId: string | null;
            /** @enum {string} */
            status: "minted" | "pending" | "compiling" | "running" | "waiting" | "paused" | "completed" | "failed" | "cancelled";
            /**
             * @description Why a `waiting` run waits (absent otherwise): `approval` (a tool call awaits a decision), `sleep` (a step's retry backoff, or a `wait.sleep` step), `trigger` (a section awaits its next trigger), `signal` (a `wait.signal` step awaits a signal: see `awaitingSignals`), `child` (a workflow.run step awaits the child run it started), `concurrency` / `throttle` (queued behind its key's flow-control limit: see `queue`), `rate_limit` (a model call waits for its model's shared limit).
             * @enum {string}
             */
            waitReason?: "approval" | "sleep" | "trigger" | "signal" | "child" | "concurrency" | "throttle" | "rate_limit";
            /** @description When the wait ends by itself or expires (epoch ms): a sleep's retry or wake-up, the earliest pending approval's expiry, a signal wait's timeout. */
            waitingUntil?: number;
            versionId?: string;
            output?: unknown;
            cause?: {
                code: string;
                message: string;
                details?: unknown;
            };
            usage?: components["schemas"]["Usage"];
            eventCount: number;
            createdAt: number | null;
            input?: unknown;
            occurrences?: components["schemas"]["Occurrences"];
            /** @description Tool calls that asked for approval */
            approvals?: unknown[];
            /** @description Models (provider/model) the deterministic offline model answered for: LITTLE_MODELS=auto fell back for lack of a key, or the Worker runs offline. Absent when every answer came from a real provider. */
            offlineModels?: string[];
            placement?: {
                jurisdiction?: string;
                locationHint?: string;
                jurisdictionEnforced: boolean;
            };
            /** @description A completed run whose output, stored by reference in R2, cannot be read back: its blob is gone (`output_missing`) or no longer matches its digest (`output_integrity`). `output` is then absent. */
            outputError?: {
                /** @enum {string} */
                code: "output_missing" | "output_integrity";
                message: string;
            };
            /** @description Signals sent to the run, in arrival order */
            signals?: components["schemas"]["Signal"][];
            /** @description While a `wait.signal` step waits: the signals it takes, each with its payload's JSON Schema (enough to render a form) */
            awaitingSignals?: components["schemas"]["AwaitedSignal"][];
            /** @description A child run: the run whose workflow.run step started it, and that step's path. */
            parent?: {
                runId: string;
                stepPath: string;
            };
            /** @description The child runs this run's workflow.run steps started, in start order. */
            children?: components["schemas"]["ChildRun"][];
            queue?: components["schemas"]["QueuePlace"];
            paused?: components["schemas"]["RunPaused"];
            tags?: components["schemas"]["RunTags"];
            progress?: components["schemas"]["RunProgress"];
            /** @description The run's OpenTelemetry trace id (32 hex digits): the caller's when the start carried a W3C `traceparent`, else derived from the run id. Spans go to `LITTLE_OTLP_ENDPOINT` (docs/observability.md). */
            traceId?: string;
            /** @description A restart (`POST /v1/runs/{runId}/restart`): the run it restarts and the first step it ran afresh. */
            restartOf?: {
                runId: string;
                fromStep?: string;
            };
            /** @description A fork (`POST /v1/runs/{runId}/fork`): the run it forks. */
            forkOf?: {
                runId: string;
            };
            /** @description The restarts of this run, oldest first. */
            restarts?: string[];
            /** @description The forks of this run, oldest first. */
            forks?: string[];
            /** @description While `waitReason` is `rate_limit`: each step whose model call waits for its model's shared limit (docs/flow-control.md, "Model limits"), and when (epoch ms) the limiter expects to let it go. */
            rateLimited?: {
                stepPath: string;
                providerId: string;
                modelId: string;
                until: number;
            }[];
        };
        Usage: {
            inputTokens: number;
            outputTokens: number;
            totalTokens: number;
            /** @description USD from the models' declared pricing; null when a model is unpriced */
            costUsd: number | null;
        };
        /** @description A section run's occurrences */
        Occurrences: {
            total: number;
            completed: number;
            failed: number;
            pending: number;
            latest: {
                occurrenceId: string;
                status: string;
                trigger: {
                    kind: string;
                    id?: string;
                };
                output?: unknown;
                cause?: {
                    code: string;
                    message: string;
                };
            }[];
        };
        Signal: {
            id: string;
            name: string;
            /** @description When the run's log took it (ISO-8601) */
            receivedAt: string;
            /** @description Whether a wait.signal step has taken it (else it is buffered for the first wait that names it). In a send's answer, true means the run's waiting step took it in that call: the step has ended */
            consumed: boolean;
            /** @description The step path of the wait that took it */
            consumedBy?: string;
            payload?: unknown;
        };
        AwaitedSignal: {
            name: string;
            description: string;
            schema?: unknown;
            stepPath: string;
        };
        ChildRun: {
            runId: string;
            workflowId: string;
            stepPath: string;
            attempt: number;
            /** @enum {string} */
            status: "running" | "completed" | "failed" | "cancelled";
            cause?: {
                code: string;
                message: string;
            };
        };
        /** @description A run queued by flow control (`waitReason` `concurrency` or `throttle`): the limit it waits for (`gate`: its index in the definition's list), its key, and its place in the key's queue (1 = next; null when the limiter could not be asked); `scope` `tenant` when it waits for its tenant's start quota. docs/flow-control.md. */
        QueuePlace: {
            /** @enum {string} */
            kind: "concurrency" | "throttle";
            gate: number;
            key: string;
            position: number | null;
            /**
             * @description `tenant`: the run waits for one of its tenant's start quotas (`concurrency`: LITTLE_QUOTA_CONCURRENT_RUNS, `throttle`: LITTLE_QUOTA_STARTS_PER_MINUTE), not its workflow's flow control. docs/api.md, "Quotas".
             * @enum {string}
             */
            scope?: "tenant";
        };
        /** @description A `paused` run: who paused it and when (docs/runs.md, "Pause and resume"). Absent otherwise. */
        RunPaused: {
            by: string;
            at: number;
        };
        /** @description The start's tags (`key` → `value`): filter with `GET /v1/runs?tag=key:value` */
        RunTags: {
            [key: string]: string;
        };
        RunProgress: {
            /** @description Steps of the version the run executes (its current cycle's), a fan-out's branches counted once they are known; null before a plan exists */
            stepsTotal: number | null;
            /** @description Of those, the steps that succeeded, failed for good or were skipped */
            stepsEnded: number;
        };
        RunLinks: {
            self: string;
            events: string;
            stream: string;
        };
        StartRun: {
            /** @description The run input; validated against the workflow's input schema. */
            input?: unknown;
            /** @description Choose the run id (per tenant); starting an existing id returns that run. Ids starting with run_wh_, run_cron_, run_q_, run_child_, run_restart_, run_fork_ are the Worker's own (webhooks, schedules, queues, child runs): 422 `run_id_reserved`. */
            runId?: string;
            /**
             * @description Where to create the run object; defaults to near the caller.
             * @enum {string}
             */
            location?: "wnam" | "enam" | "sam" | "weur" | "eeur" | "apac" | "oc" | "afr" | "me";
            /** @description At most 16 tags, `key` → `value`: a key is 1–64 of `A-Z a-z 0-9 _ . -` (starting with a letter or digit), a value 0–64 characters; else 422 `run_tags_invalid`. Part of the idempotency comparison. */
            tags?: {
                [key: string]: string;
            };
        };
        RunSummary: {
            runId: string;
            workflowId: string;
            /** @enum {string} */
            status: "minted" | "pending" | "compiling" | "running" | "waiting" | "paused" | "completed" | "failed" | "cancelled";
            /**
             * @description Why a `waiting` run waits; null otherwise.
             * @enum {string|null}
             */
            waitReason: "approval" | "sleep" | "trigger" | "signal" | "child" | "concurrency" | "throttle" | "rate_limit" | null;
            triggerKind: string;
            versionId: string | null;
            causeCode: string | null;
            createdAt: number;
            updatedAt: number;
            queue?: components["schemas"]["QueuePlace"] & unknown;
            tags?: components["schemas"]["RunTags"];
            progress?: components["schemas"]["RunProgress"] & unknown;
        };
        ForkPlan: {
            sourceRunId: string;
            versionId?: string;
            fromStep?: string;
            steps: {
                stepId: string;
                uses: string;
                /** @enum {string} */
                action: "reuse" | "rerun";
                /** @enum {string} */
                reason?: "restarted" | "changed" | "reads_rerun" | "not_in_source";
                sourceSeq?: number;
                sourceUsage: {
                    inputTokens: number;
                    outputTokens: number;
                    totalTokens: number;
                    costUsd: number | null;
                };
            }[];
            /** @description Estimated model usage: the original's usage of the steps that re-run */
            estimate: {
                inputTokens: number;
                outputTokens: number;
                totalTokens: number;
                costUsd: number | null;
            };
            /** @description tool.call steps that would run again (their side effects happen again) */
            sideEffects: {
                stepId: string;
                tool: string;
            }[];
        };
        RestartRequest: {
            /** @description The first step to run afresh; default the first failed step */
            fromStep?: string;
        };
        ForkRequest: {
            /** @description Another input (default the original's) */
            input?: unknown;
            /**
             * @description Model slot → "provider:model", for this run only
             * @example {
             *       "gpt-5": "anthropic:claude-sonnet-4-5"
             *     }
             */
            models?: {
                [key: string]: string;
            };
            /**
             * @description Step id → fields of its `with` to replace (a shallow merge)
             * @example {
             *       "summarize": {
             *         "with": {
             *           "prompt": "…"
             *         }
             *       }
             *     }
             */
            steps?: {
                [key: string]: {
                    with: {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A whole LWIR to run instead of the original's */
            lwir?: unknown;
        };
        RunComparison: {
            a: {
                runId: string;
                status: string;
                versionId: string | null;
                usage: components["schemas"]["Usage"];
                restartOf?: string;
                forkOf?: string;
            };
            b: {
                runId: string;
                status: string;
                versionId: string | null;
                usage: components["schemas"]["Usage"];
                restartOf?: string;
                forkOf?: string;
            };
            steps: {
                stepId: string;
                uses: string;
                a: {
                    /** @enum {string} */
                    status: "succeeded" | "failed" | "skipped" | "running" | "not_run";
                    reused?: {
                        runId: string;
                        seq: number;
                    };
                    output?: unknown;
                    durationMs: number | null;
                    usage: {
                        inputTokens: number;
                        outputTokens: number;
                        totalTokens: number;
                        costUsd: number | null;
                    };
                };
                b: {
                    /** @enum {string} */
                    status: "succeeded" | "failed" | "skipped" | "running" | "not_run";
                    reused?: {
                        runId: string;
                        seq: number;
                    };
                    output?: unknown;
                    durationMs: number | null;
                    usage: {
                        inputTokens: number;
                        outputTokens: number;
                        totalTokens: number;
                        costUsd: number | null;
                    };
                };
                changed: boolean;
                diff: {
                    path: string;
                    a?: unknown;
                    b?: unknown;
                }[];
                diffOmitted: number;
            }[];
        };
        RunEvent: {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "RunRequested";
            at: number;
            payload: {
                workflowId: string;
                input?: unknown;
                trigger: {
                    /** @enum {string} */
                    kind: "http" | "webhook" | "programmatic" | "lwir" | "cron" | "queue" | "child" | "restart" | "fork";
                    id?: string;
                };
                tenant: string;
                placement?: {
                    jurisdiction?: string;
                    locationHint?: string;
                };
                lwir?: unknown;
                approvedDefinitionHash?: string;
                approvedAt?: number;
                pinnedVersionId?: string;
                pinnedVersionHash?: string;
                /** @enum {string} */
                schemaNormalizer?: "little-workflow-schema@1" | "little-workflow-schema@2";
                /** @enum {string} */
                lwirValidator?: "little-workflow-lwir-validator@1" | "little-workflow-lwir-validator@2" | "little-workflow-lwir-validator@3";
                parent?: {
                    runId: string;
                    stepPath: string;
                    attempt: number;
                    tenant: string;
                    placement?: {
                        jurisdiction?: string;
                        locationHint?: string;
                    };
                    depth: number;
                };
                flow?: {
                    /** @enum {string} */
                    kind: "concurrency" | "throttle";
                    index: number;
                    key: string;
                    limit: number;
                    periodMs?: number;
                    /** @enum {string} */
                    scope?: "tenant";
                }[];
                traceparent?: string;
                memo?: {
                    /** @enum {string} */
                    relation: "restart" | "fork";
                    sourceRunId: string;
                    placement?: {
                        jurisdiction?: string;
                        locationHint?: string;
                    };
                    fromStep?: string;
                    rerun?: string[];
                };
                modelOverrides?: {
                    [key: string]: {
                        provider: string;
                        providerId: string;
                        modelId: string;
                    } | {
                        variable: string;
                        invalid: string;
                    };
                };
                tags?: {
                    [key: string]: string;
                };
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "harness.session.started";
            at: number;
            payload: {
                sessionId: string;
                /** @enum {string} */
                role: "planner" | "worker" | "fixer";
                /** @enum {string} */
                kind: "plan" | "execute_step" | "fix_step";
                manifestHash: string;
                manifest?: unknown;
                stepPath?: string;
                cycle?: number;
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "harness.session.completed";
            at: number;
            payload: {
                sessionId: string;
                /** @enum {string} */
                role: "planner" | "worker" | "fixer";
                output?: unknown;
                fixedSource?: string;
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "harness.session.failed";
            at: number;
            payload: {
                sessionId: string;
                /** @enum {string} */
                role: "planner" | "worker" | "fixer";
                /** @enum {string} */
                causeCode: "input_schema_error" | "output_schema_error" | "workflow_not_found" | "workflow_missing_tool" | "workflow_definition_invalid" | "capability_drift" | "non_deterministic_replay" | "planner_validation_exhausted" | "planner_no_lwir" | "lwir_invalid" | "code_integrity" | "run_timeout" | "outer_loop_exhausted" | "supervise_failed" | "model_unavailable" | "model_error" | "model_timeout" | "model_protocol_error" | "step_failed" | "definition_not_approved" | "definition_approval_revoked" | "occurrence_timeout" | "section_superseded" | "pinned_version_invalid" | "secrets_unavailable" | "version_id_collision" | "lwir_too_large" | "model_tokens_exceeded" | "event_log_too_large" | "internal_error";
                message: string;
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "harness.model.called";
            at: number;
            payload: {
                sessionId: string;
                callId: string;
                turn: number;
                requestHash: string;
                modelSlotId: string;
                providerId: string;
                modelId: string;
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "harness.model.responded";
            at: number;
            payload: {
                sessionId: string;
                callId: string;
                response?: unknown;
                usage: {
                    inputTokens: number;
                    outputTokens: number;
                    totalTokens: number;
                    costUsd: number | null;
                };
                model: {
                    providerId: string;
                    modelId: string;
                    offline: boolean;
                };
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "harness.model.failed";
            at: number;
            payload: {
                sessionId: string;
                callId: string;
                error: {
                    name: string;
                    code?: string;
                    message: string;
                    retriable: boolean;
                };
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "harness.tool_call.started";
            at: number;
            payload: {
                sessionId: string;
                callId: string;
                /** @enum {string} */
                caller: "model";
                tool: string;
                args?: unknown;
                idempotencyKey: string;
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "harness.tool_call.succeeded";
            at: number;
            payload: {
                sessionId: string;
                callId: string;
                tool: string;
                result?: unknown;
                scratch?: {
                    [key: string]: string;
                };
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "harness.tool_call.failed";
            at: number;
            payload: {
                sessionId: string;
                callId: string;
                tool: string;
                error: {
                    name: string;
                    code?: string;
                    message: string;
                    retriable: boolean;
                };
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "WorkflowVersionRegistered";
            at: number;
            payload: {
                versionId: string;
                versionHash: string;
                lockHash: string;
                definitionHash: string;
                warnings: unknown[];
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "RunStarted";
            at: number;
            payload: {
                versionId: string;
                lockHash: string;
                cycle: number;
                steps?: number;
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "StepScheduled";
            at: number;
            payload: {
                stepPath: string;
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "StepStarted";
            at: number;
            payload: {
                stepPath: string;
                attempt: number;
                deadline?: number;
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "StepSucceeded";
            at: number;
            payload: {
                stepPath: string;
                attempt: number;
                output?: unknown;
                reused?: {
                    runId: string;
                    seq: number;
                };
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "StepFailed";
            at: number;
            payload: {
                stepPath: string;
                attempt: number;
                error: {
                    name: string;
                    code?: string;
                    message: string;
                    retriable: boolean;
                };
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "StepRetried";
            at: number;
            payload: {
                stepPath: string;
                attempt: number;
                retryAt: number;
                error: {
                    name: string;
                    code?: string;
                    message: string;
                    retriable: boolean;
                };
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "StepSkipped";
            at: number;
            payload: {
                stepPath: string;
                reason: string;
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "OuterLoopCycleCompleted";
            at: number;
            payload: {
                cycleNumber: number;
                /** @enum {string} */
                status: "completed" | "failed";
                output?: unknown;
                summary?: string;
                /** @enum {string} */
                decision: "accept" | "replan";
                failure?: {
                    /** @enum {string} */
                    causeCode: "input_schema_error" | "output_schema_error" | "workflow_not_found" | "workflow_missing_tool" | "workflow_definition_invalid" | "capability_drift" | "non_deterministic_replay" | "planner_validation_exhausted" | "planner_no_lwir" | "lwir_invalid" | "code_integrity" | "run_timeout" | "outer_loop_exhausted" | "supervise_failed" | "model_unavailable" | "model_error" | "model_timeout" | "model_protocol_error" | "step_failed" | "definition_not_approved" | "definition_approval_revoked" | "occurrence_timeout" | "section_superseded" | "pinned_version_invalid" | "secrets_unavailable" | "version_id_collision" | "lwir_too_large" | "model_tokens_exceeded" | "event_log_too_large" | "internal_error";
                    message: string;
                    stepId?: string;
                    stepPath?: string;
                    details?: unknown;
                    succeededSteps?: {
                        stepId: string;
                        stepPath: string;
                        output?: unknown;
                        outputPreview?: string;
                    }[];
                    succeededStepsOmitted?: number;
                };
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "ApprovalRequested";
            at: number;
            payload: {
                approvalId: string;
                stepPath: string;
                tool: string;
                args?: unknown;
                argsHash: string;
                expiresAt: number;
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "ApprovalDecided";
            at: number;
            payload: {
                approvalId: string;
                /** @enum {string} */
                decision: "approved" | "denied";
                argsHash: string;
                reason?: string;
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "OccurrenceQueued";
            at: number;
            payload: {
                occurrenceId: string;
                input?: unknown;
                trigger: {
                    /** @enum {string} */
                    kind: "http" | "webhook" | "programmatic" | "lwir" | "cron" | "queue" | "child" | "restart" | "fork";
                    id?: string;
                };
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "OccurrenceStarted";
            at: number;
            payload: {
                occurrenceId: string;
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "OccurrenceCompleted";
            at: number;
            payload: {
                occurrenceId: string;
                output?: unknown;
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "OccurrenceFailed";
            at: number;
            payload: {
                occurrenceId: string;
                /** @enum {string} */
                causeCode: "input_schema_error" | "output_schema_error" | "workflow_not_found" | "workflow_missing_tool" | "workflow_definition_invalid" | "capability_drift" | "non_deterministic_replay" | "planner_validation_exhausted" | "planner_no_lwir" | "lwir_invalid" | "code_integrity" | "run_timeout" | "outer_loop_exhausted" | "supervise_failed" | "model_unavailable" | "model_error" | "model_timeout" | "model_protocol_error" | "step_failed" | "definition_not_approved" | "definition_approval_revoked" | "occurrence_timeout" | "section_superseded" | "pinned_version_invalid" | "secrets_unavailable" | "version_id_collision" | "lwir_too_large" | "model_tokens_exceeded" | "event_log_too_large" | "internal_error";
                message: string;
                rearmed: boolean;
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "RunCompleted";
            at: number;
            payload: {
                output?: unknown;
                usage: {
                    inputTokens: number;
                    outputTokens: number;
                    totalTokens: number;
                    costUsd: number | null;
                };
                versionId: string;
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "RunFailed";
            at: number;
            payload: {
                /** @enum {string} */
                causeCode: "input_schema_error" | "output_schema_error" | "workflow_not_found" | "workflow_missing_tool" | "workflow_definition_invalid" | "capability_drift" | "non_deterministic_replay" | "planner_validation_exhausted" | "planner_no_lwir" | "lwir_invalid" | "code_integrity" | "run_timeout" | "outer_loop_exhausted" | "supervise_failed" | "model_unavailable" | "model_error" | "model_timeout" | "model_protocol_error" | "step_failed" | "definition_not_approved" | "definition_approval_revoked" | "occurrence_timeout" | "section_superseded" | "pinned_version_invalid" | "secrets_unavailable" | "version_id_collision" | "lwir_too_large" | "model_tokens_exceeded" | "event_log_too_large" | "internal_error";
                message: string;
                details?: unknown;
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "RunCancelled";
            at: number;
            payload: {
                reason: string;
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "RunPaused";
            at: number;
            payload: {
                by: string;
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "RunResumed";
            at: number;
            payload: {
                by: string;
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "WaitStarted";
            at: number;
            payload: {
                stepPath: string;
                attempt: number;
                /** @enum {string} */
                kind: "sleep" | "signal";
                until: number;
                signals?: {
                    name: string;
                    description: string;
                    schema?: unknown;
                }[];
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "SignalReceived";
            at: number;
            payload: {
                signalId: string;
                name: string;
                payload?: unknown;
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "SignalConsumed";
            at: number;
            payload: {
                signalId: string;
                stepPath: string;
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "ChildRunStarted";
            at: number;
            payload: {
                stepPath: string;
                attempt: number;
                childRunId: string;
                workflowId: string;
                placement?: {
                    jurisdiction?: string;
                    locationHint?: string;
                };
                outputSchema?: {
                    [key: string]: unknown;
                } | boolean | null;
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "ChildRunEnded";
            at: number;
            payload: {
                /** @enum {string} */
                status: "completed";
                output?: unknown;
                stepPath: string;
                attempt: number;
                childRunId: string;
            } | {
                /** @enum {string} */
                status: "failed" | "cancelled";
                cause: {
                    code: string;
                    message: string;
                };
                stepPath: string;
                attempt: number;
                childRunId: string;
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "FlowQueued";
            at: number;
            payload: {
                /** @enum {string} */
                kind: "concurrency" | "throttle";
                gate: number;
                key: string;
                position: number;
                /** @enum {string} */
                scope?: "tenant";
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "FlowAdmitted";
            at: number;
            payload: {
                /** @enum {string} */
                kind: "concurrency" | "throttle";
                gate: number;
                key: string;
                admittedAt: number;
                /** @enum {string} */
                scope?: "tenant";
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "ModelRateLimited";
            at: number;
            payload: {
                stepPath: string;
                providerId: string;
                modelId: string;
                until: number;
            };
        } | {
            seq: number;
            runId: string;
            /** @enum {string} */
            type: "ModelRateLimitLifted";
            at: number;
            payload: {
                stepPath: string;
                providerId: string;
                modelId: string;
            };
        };
        Workflow: {
            id: string;
            description: string;
            definitionHash: string;
            inputSchema?: unknown;
            requestedOutput?: unknown;
            modelSlots: {
                id: string;
                providerId: string;
                modelId: string;
                description: string;
            }[];
            /** @description Each slot's provider, model and readiness; a live start with a slot not ready is refused (model_unavailable) */
            models: components["schemas"]["ModelSlotReadiness"][];
            tools: {
                id: string;
                description: string;
                descriptorHash: string;
            }[];
            placement: {
                jurisdiction?: string;
            };
            /** @description The signals a run may wait for (`wait.signal`, docs/waits.md), sorted by name, each with its normalized payload JSON Schema: what `POST /v1/runs/{runId}/signals` accepts. [] when none are declared. */
            signals: {
                name: string;
                description: string;
                schema?: unknown;
                schemaHash: string;
            }[];
            /** @description The workflows it may call (`workflow.run`), sorted by id, each with the definition hash its own hash includes. [] when it calls none. */
            workflows: {
                id: string;
                definitionHash: string;
            }[];
            /** @description The workflow's flow control (docs/flow-control.md): `concurrency` and `throttle` (keys are templates over the input) and the model slots' shared `limits`. Not part of the definition hash. */
            flowControl?: {
                concurrency?: {
                    limit: number;
                    key?: string;
                }[];
                throttle?: {
                    limit: number;
                    periodMs: number;
                    key?: string;
                };
                modelLimits?: {
                    slotId: string;
                    providerId: string;
                    modelId: string;
                    requestsPerMinute?: number;
                    tokensPerMinute?: number;
                    concurrent?: number;
                }[];
            };
        };
        ModelSlotReadiness: {
            /** @description The slot id (the planner's is derived from its model, like a step slot's) */
            id: string;
            /** @enum {string} */
            role: "planner" | "step";
            /** @description Provider id as hashed into the definition, e.g. openai.responses */
            provider: string;
            model: string;
            /**
             * @description override: chosen by the LITTLE_MODEL_<SLOT> var
             * @enum {string}
             */
            source: "definition" | "override";
            /**
             * @description LITTLE_MODELS
             * @enum {string}
             */
            mode: "live" | "auto" | "offline";
            /** @description A run can call this slot (a live start is refused while one is not) */
            ready: boolean;
            /** @description Calls go to the offline model (offline mode, or auto falling back) */
            offline: boolean;
            /** @description Secrets (or AI, the Workers AI binding) the real provider lacks, also when the offline model stands in */
            missing?: string[];
        };
        WorkflowVersion: {
            version: {
                id: string;
                hash: string;
                canonicalizer: string;
                lwir?: unknown;
            };
            locks: {
                lockHash: string;
                definitionHash: string;
                lock?: unknown;
            }[];
        };
        Definition: {
            definitionHash: string;
            workflowId: string;
            /** @description The WorkflowDefinitionSnapshot the hash addresses (canonical JSON) */
            snapshot?: unknown;
            /** @description Whether a workflow registered in this Worker hashes to it now */
            live: boolean;
            requiresApproval: boolean;
            approval: components["schemas"]["DefinitionApproval"];
            /** @description The tenant's approvals and revocations of this hash, oldest first: who asked and when */
            audit: components["schemas"]["DefinitionApprovalAuditEntry"][];
        };
        DefinitionApproval: {
            approvedAt: number;
            /** @description The pinned version's display id */
            pinnedVersionId: string | null;
            /** @description The pinned version's full sha256 hash: what runs execute (null for a pin made before pins held it) */
            pinnedVersionHash: string | null;
            pinnedAt: number | null;
        } | null;
        DefinitionApprovalAuditEntry: {
            /** @enum {string} */
            action: "approved" | "revoked";
            workflowId: string;
            at: number;
            /** @description The token that asked (`tok_…`), `dev` (the dev token) or `admin` */
            by: string | null;
        };
        DefinitionRevocation: {
            definitionHash: string;
            workflowId: string;
            revoked: components["schemas"]["DefinitionApproval"] & unknown;
            /** @description Unfinished runs started under the approval, now failed with `definition_approval_revoked` */
            endedRuns: string[];
        };
        Finding: {
            /** @enum {string} */
            severity: "error" | "warning";
            code: string;
            path: string;
            message: string;
        };
        Token: {
            /** @example tok_3f2a9c0e1b4d5a67 */
            id: string;
            tenant: string;
            label: string | null;
            scopes: ("runs:read" | "runs:write" | "runs:delete" | "approve" | "admin")[];
            /** @description Epoch ms */
            createdAt: number;
            /** @description Epoch ms; null: never expires */
            expiresAt: number | null;
            /** @description Epoch ms, to the minute; null: never used */
            lastUsedAt: number | null;
            /** @description Epoch ms; set only in the answer to a revocation */
            revokedAt: number | null;
        };
        Retention: {
            tenant: string;
            /** @description Days ended runs are kept; null: for ever */
            days: number | null;
            /**
             * @description `tenant`: the override; `default`: LITTLE_RETENTION_DAYS (or for ever)
             * @enum {string}
             */
            source: "tenant" | "default";
        };
        OccurrenceResponse: {
            occurrenceId: string;
            created: boolean;
            run: components["schemas"]["Run"];
            links: components["schemas"]["RunLinks"];
        };
        SectionSummary: {
            runId: string;
            status: string;
            /** @description The definition the section locked its body against */
            definitionHash: string | null;
            versionId: string | null;
            /** @description Its definition is no longer the live one: supersede it before triggering it */
            stale: boolean;
            createdAt: number;
            updatedAt: number;
        };
        SectionSuperseded: {
            run: components["schemas"]["Run"] & unknown;
            into: string;
            /** @description Each pending occurrence of the old section (`from`) and the occurrence it became in `into` */
            adopted: {
                from: string;
                occurrenceId: string;
                created: boolean;
            }[];
        };
        Approval: {
            approvalId: string;
            stepPath: string;
            tool: string;
            args?: unknown;
            /** @description sha256 of the canonical JSON of args; a decision must quote it */
            argsHash: string;
            expiresAt: number;
            /** @enum {string} */
            status: "waiting_for_approval" | "approved" | "denied" | "expired";
            reason?: string;
        };
        SecretEntry: {
            name: string;
            updatedAt: number;
        };
        SendSignal: {
            /** @description A signal the run's workflow declares */
            name: string;
            /** @description Valid against the signal's declared schema */
            payload?: unknown;
            /** @description Makes a resend idempotent: the same id answers the same signal, delivered once */
            id?: string;
        };
        FlowQueue: {
            /** @enum {string} */
            kind: "concurrency" | "throttle";
            /** @description The limit's place in the definition's `concurrency` list (0 for the throttle) */
            index: number;
            /** @description The key's value (`*` for a limit without a key) */
            key: string;
            limit: number;
            /** @description A throttle's window */
            periodMs?: number;
            /** @description Runs holding a slot (concurrency), or started in the current window (throttle) */
            running: number;
            queued: number;
            /** @description When the key's limiter last changed (epoch ms) */
            updatedAt: number;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    startBulkAction: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BulkActionRequest"];
            };
        };
        responses: {
            /** @description The job is started */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        job: components["schemas"]["BulkJob"];
                    };
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown action (`bulk_action_unknown`), an action this Worker does not run (`bulk_action_unsupported`), a bad filter value (`bulk_filter_invalid`: a date, a status, a tag that is not `key:value`); no job is created */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getBulkAction: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                jobId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        job: components["schemas"]["BulkJob"];
                    };
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunResponse"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The run was deleted (`run_deleted`): its data is gone and its id is never reused */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteRun: {
        parameters: {
            query?: {
                /** @description Cancel the run first when it has not ended (else 409 `run_active`) */
                cancel?: "true" | "false";
            };
            header?: never;
            path: {
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run is deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deleted: components["schemas"]["DeletedRun"];
                    };
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The run has not ended (`run_active`): cancel it, or pass `?cancel=true` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The run was deleted (`run_deleted`): its data is gone and its id is never reused */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startRun: {
        parameters: {
            query?: {
                wait?: number | null;
            };
            header?: {
                "idempotency-key"?: string;
                /** @description W3C Trace Context: the run's trace becomes a child of this span (docs/observability.md); a malformed one is ignored */
                traceparent?: string;
            };
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StartRun"];
            };
        };
        responses: {
            /** @description The run ended within the wait */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunResponse"];
                };
            };
            /** @description The run is started (or was already) */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunResponse"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The run id or idempotency key was used for another workflow or input, or (`model_unavailable`, LITTLE_MODELS=live) a model slot lacks its key: nothing is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The input does not match the workflow's input schema, the tags break their rules (`run_tags_invalid`), a LITTLE_MODEL_<SLOT> var is invalid (`model_config_invalid`), or the runId is in a namespace the Worker derives for its triggers (`run_id_reserved`): nothing is stored */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listRuns: {
        parameters: {
            query?: {
                workflow?: string;
                status?: "minted" | "pending" | "compiling" | "running" | "waiting" | "paused" | "completed" | "failed" | "cancelled";
                /** @description Only runs waiting for this (`approval`, `sleep`, `trigger`, `concurrency`, `throttle`, `rate_limit`); implies `status=waiting`. */
                waitReason?: "approval" | "sleep" | "trigger" | "signal" | "child" | "concurrency" | "throttle" | "rate_limit";
                /** @description `key:value`: only runs started with that tag. Repeat it (`?tag=a:1&tag=b:2`): a run must carry every one. */
                tag?: string | string[];
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of runs */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        runs: components["schemas"]["RunSummary"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run after the cancel */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunResponse"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The run was deleted (`run_deleted`): its data is gone and its id is never reused */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    mintRunAnchor: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The minted anchor */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunResponse"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    restartRun: {
        parameters: {
            query?: {
                wait?: number | null;
            };
            header?: {
                /** @description A retry with the same key returns the same new run */
                "idempotency-key"?: string;
            };
            path: {
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RestartRequest"];
            };
        };
        responses: {
            /** @description The new run ended within the wait */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunResponse"] & {
                        plan: components["schemas"]["ForkPlan"];
                    };
                };
            };
            /** @description The new run is started (or was, by the same Idempotency-Key) */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunResponse"] & {
                        plan: components["schemas"]["ForkPlan"];
                    };
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `run_active` (the run has not ended), `run_not_forkable` (it never ran a version), or an `idempotency_conflict` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The run was deleted (`run_deleted`): its data is gone and its id is never reused */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `restart_step_unknown` (names the step ids), `restart_no_failed_step`, `fork_edit_invalid` (findings), `lwir_invalid` (findings) or `input_schema_error`: nothing is stored */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    forkRun: {
        parameters: {
            query?: {
                wait?: number | null;
                dryRun?: "true" | "false";
            };
            header?: {
                /** @description A retry with the same key returns the same new run */
                "idempotency-key"?: string;
            };
            path: {
                runId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ForkRequest"];
            };
        };
        responses: {
            /** @description The plan (`dryRun=true`, nothing started), or the new run ended within the wait */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        run?: components["schemas"]["Run"];
                        links?: components["schemas"]["RunLinks"];
                        plan: components["schemas"]["ForkPlan"];
                    };
                };
            };
            /** @description The new run is started (or was, by the same Idempotency-Key) */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunResponse"] & {
                        plan: components["schemas"]["ForkPlan"];
                    };
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `run_active` (the run has not ended), `run_not_forkable` (it never ran a version), or an `idempotency_conflict` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The run was deleted (`run_deleted`): its data is gone and its id is never reused */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `restart_step_unknown` (names the step ids), `restart_no_failed_step`, `fork_edit_invalid` (findings), `lwir_invalid` (findings) or `input_schema_error`: nothing is stored */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    compareRuns: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                runId: string;
                otherRunId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The comparison */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunComparison"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The run was deleted (`run_deleted`): its data is gone and its id is never reused */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    pauseRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run, paused */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunResponse"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The run has ended (`run_ended`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The run was deleted (`run_deleted`): its data is gone and its id is never reused */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    resumeRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run, resumed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunResponse"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The run has ended (`run_ended`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The run was deleted (`run_deleted`): its data is gone and its id is never reused */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listRunEvents: {
        parameters: {
            query?: {
                after?: number | null;
                limit?: number;
                type?: string;
            };
            header?: never;
            path: {
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of events */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        events: components["schemas"]["RunEvent"][];
                        nextAfter: number | null;
                    };
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The run was deleted (`run_deleted`): its data is gone and its id is never reused */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    streamRunEvents: {
        parameters: {
            query?: {
                after?: number | null;
            };
            header?: never;
            path: {
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The run was deleted (`run_deleted`): its data is gone and its id is never reused */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    streamRun: {
        parameters: {
            query?: {
                after?: number | null;
            };
            header?: never;
            path: {
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run's events and model deltas */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The run was deleted (`run_deleted`): its data is gone and its id is never reused */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWorkflows: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Workflows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        workflows: components["schemas"]["Workflow"][];
                    };
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                versionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The version */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkflowVersion"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDefinition: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                hash: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The definition */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Definition"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The projection is missing */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWorkflowDefinition: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The live definition */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Definition"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    approveDefinition: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                hash: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The approved definition */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Definition"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The projection is missing */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeDefinitionApproval: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                hash: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The revoked approval and the runs it ended */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DefinitionRevocation"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    pinVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                hash: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    versionId?: string;
                    /** @description The version's full hash; pins exactly that document */
                    versionHash?: string;
                };
            };
        };
        responses: {
            /** @description The pinned definition */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Definition"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not approved, or not a live definition */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The version does not bind to this definition */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    unpinVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                hash: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The definition, unpinned */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Definition"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    validateLwir: {
        parameters: {
            query?: {
                workflow?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": unknown;
            };
        };
        responses: {
            /** @description The findings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        valid: boolean;
                        findings: components["schemas"]["Finding"][];
                    };
                };
            };
            /** @description Not JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown workflow */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getLwirSchema: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The schema */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startLwirRun: {
        parameters: {
            query?: {
                wait?: number | null;
            };
            header?: {
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    lwir?: unknown;
                    input?: unknown;
                    /** @description Choose the run id (per tenant); starting an existing id returns that run. Ids starting with run_wh_, run_cron_, run_q_, run_child_, run_restart_, run_fork_ are the Worker's own (webhooks, schedules, queues, child runs): 422 `run_id_reserved`. */
                    runId?: string;
                    /** @description At most 16 tags, `key` → `value`: a key is 1–64 of `A-Z a-z 0-9 _ . -` (starting with a letter or digit), a value 0–64 characters; else 422 `run_tags_invalid`. Part of the idempotency comparison. */
                    tags?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description The run ended within the wait */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunResponse"];
                };
            };
            /** @description The run is started */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunResponse"];
                };
            };
            /** @description Invalid LWIR (with findings) or request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No registered workflow of that name */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description LITTLE_MODELS=live and a model slot lacks its key (`model_unavailable`): nothing is stored */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large, or an LWIR over LITTLE_QUOTA_LWIR_BYTES (`lwir_too_large`); nothing is stored */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The runId is in a namespace the Worker derives for its triggers (`run_id_reserved`), or the tags break their rules (`run_tags_invalid`): nothing is stored */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listTokens: {
        parameters: {
            query?: {
                tenant?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tenant's tokens, newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        tokens: components["schemas"]["Token"][];
                    };
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the admin scope (insufficient_scope), or names another tenant */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    tenant: string;
                    label?: string;
                    /** @description What the token may do; `admin` implies the others. Omitted: every scope (as tokens were before scopes). */
                    scopes?: ("runs:read" | "runs:write" | "runs:delete" | "approve" | "admin")[];
                    expiresIn?: number;
                    expiresAt?: number;
                };
            };
        };
        responses: {
            /** @description The new token (its secret, shown once) and its record */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Token"] & {
                        token: string;
                    };
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the admin scope (insufficient_scope), or names another tenant */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tokenId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The revoked token */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Token"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the admin scope (insufficient_scope), or names another tenant */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such live token */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRetention: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The retention in force */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Retention"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setRetention: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    days: number | null;
                } | {
                    /** @enum {boolean} */
                    default: true;
                };
            };
        };
        responses: {
            /** @description The retention in force now */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Retention"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    triggerRun: {
        parameters: {
            query?: {
                wait?: number | null;
            };
            header?: {
                "idempotency-key"?: string;
            };
            path: {
                runId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    input?: unknown;
                };
            };
        };
        responses: {
            /** @description A trigger seen before: its occurrence */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OccurrenceResponse"];
                };
            };
            /** @description The occurrence is queued (or, with wait, has run) */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OccurrenceResponse"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The run has ended, is not a section, or is stale after a redeploy (`section_stale`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The run was deleted (`run_deleted`): its data is gone and its id is never reused */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The input does not match the workflow's input schema */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSections: {
        parameters: {
            query?: {
                stale?: "true" | "false";
                /** @description Sections per page (default 200) */
                limit?: number;
                /** @description A `nextCursor` from the previous page */
                cursor?: string;
            };
            header?: never;
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of sections */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        liveDefinitionHash: string;
                        sections: components["schemas"]["SectionSummary"][];
                        /** @description Pass as `cursor` for the next page; null on the last */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The workflow has no onTrigger section */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    supersedeSection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                runId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    into: string;
                };
            };
        };
        responses: {
            /** @description The superseded section and what `into` adopted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SectionSuperseded"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a section, an occurrence is running, `into` is not a live section of the workflow, or the run ended otherwise */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The run was deleted (`run_deleted`): its data is gone and its id is never reused */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A pending occurrence's input does not fit the live input schema (`input_schema_error`, findings under `$.occurrences.<id>`); nothing changed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listApprovals: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The approvals */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        approvals: components["schemas"]["Approval"][];
                    };
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The run was deleted (`run_deleted`): its data is gone and its id is never reused */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    decideApproval: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                runId: string;
                approvalId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    decision: "approve" | "deny";
                    argsHash: string;
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description The decision */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        approval: components["schemas"]["Approval"];
                        created: boolean;
                        run?: unknown;
                    };
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Other arguments, already decided, expired, or the run ended */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The run was deleted (`run_deleted`): its data is gone and its id is never reused */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSecrets: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Names */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        secrets: components["schemas"]["SecretEntry"][];
                        keyConfigured: boolean;
                    };
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    value: string;
                };
            };
        };
        responses: {
            /** @description Stored */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SecretEntry"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No secrets key is configured */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        deleted: true;
                    };
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    receiveWebhook: {
        parameters: {
            query?: never;
            header?: {
                "webhook-id"?: string;
                "webhook-timestamp"?: string;
                "webhook-signature"?: string;
            };
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        /** @description The delivery's payload, verified as the raw bytes received */
        requestBody?: {
            content: {
                "application/json": unknown;
            };
        };
        responses: {
            /** @description A delivery seen before: its run */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunResponse"];
                };
            };
            /** @description The run started by this delivery */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunResponse"];
                };
            };
            /** @description Missing headers, or a body that is not UTF-8 or (signed correctly but) not JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Bad signature or timestamp */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown workflow, or one that takes no webhooks */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The webhook-id was accepted at another URL (`webhook_replayed`), or with another body; or (`model_unavailable`, LITTLE_MODELS=live) a model slot lacks its key: nothing is stored and the delivery can be sent again */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The payload is not the workflow's input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A deployed Worker holding a well-known example secret (`insecure_configuration`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    receiveRunWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workflowId: string;
                runId: string;
            };
            cookie?: never;
        };
        /** @description The delivery's payload, verified as the raw bytes received */
        requestBody?: {
            content: {
                "application/json": unknown;
            };
        };
        responses: {
            /** @description A delivery seen before: its occurrence */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OccurrenceResponse"];
                };
            };
            /** @description The occurrence queued by this delivery */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OccurrenceResponse"];
                };
            };
            /** @description Missing headers, or a body that is not UTF-8 or (signed correctly but) not JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Bad signature or timestamp */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown workflow or run, or a workflow that takes no webhooks */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The run has ended, is not a section or is stale after a redeploy (`section_stale`), or the webhook-id was accepted at another URL (`webhook_replayed`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A deployed Worker holding a well-known example secret (`insecure_configuration`) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSignals: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The signals */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        signals: components["schemas"]["Signal"][];
                        awaiting: {
                            name: string;
                            description: string;
                            schema?: unknown;
                            stepPath: string;
                        }[];
                    };
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The run was deleted (`run_deleted`): its data is gone and its id is never reused */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sendSignal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                runId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SendSignal"];
            };
        };
        responses: {
            /** @description Durable in the run's log (`created: false` for a resend of its id) */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        signal: components["schemas"]["Signal"];
                        created: boolean;
                    };
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The run has ended, or the id was sent with another signal */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The run was deleted (`run_deleted`): its data is gone and its id is never reused */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An undeclared signal name, or a payload its schema refuses */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWorkflowQueues: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The workflow's keys */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        queues: components["schemas"]["FlowQueue"][];
                    };
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, invalid, expired (token_expired) or revoked (token_revoked) token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this route needs (insufficient_scope) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
