import { WorkerEntrypoint } from "cloudflare:workers";
import { z } from "@hono/zod-openapi";
import { compareRuns } from "../engine/runs/compare-runs.ts";
import { findTenantRun } from "../engine/runs/find-tenant-run.ts";
import { forkRun } from "../engine/runs/fork-run.ts";
import { restartRun } from "../engine/runs/restart-run.ts";
import { isSettledStatus, RUN_STATUSES, WAIT_REASONS } from "../ports/run-status.ts";
import { TENANT_PATTERN } from "../sdk/names.ts";
import { assertSecureConfiguration } from "../wiring/insecure-configuration.ts";
import { wire } from "../wiring.ts";
import type { ApiServices, ApiVars } from "./api-env.ts";
import { ApiError } from "./api-error.ts";
import { type BulkRequest, BulkRequestBody, readBulkJob, startBulkJob } from "./bulk-operations.ts";
import { type DeletedRun, deleteTenantRun } from "./deletion-operations.ts";
import { pauseTenantRun } from "./pause-operations.ts";
import { ForkBody, RestartBody } from "./routes/run-fork-schemas.ts";
import { toRpcError } from "./rpc-error.ts";
import {
  asJson,
  type RpcApproval,
  type RpcBulkJob,
  type RpcComparison,
  type RpcDecision,
  type RpcEventsPage,
  type RpcForked,
  type RpcOccurrence,
  type RpcRun,
  type RpcRunsPage,
  type RpcSignal,
} from "./rpc-types.ts";
import { cancelTenantRun, listTenantEvents, listTenantRuns, readRun, startTenantRun, toRun } from "./run-operations.ts";
import { StartRunBody } from "./schemas.ts";
import { sendTenantSignal } from "./signal-operations.ts";
import { queueOccurrence } from "./trigger-run.ts";
import { zodFindings } from "./zod-findings.ts";

/** What the caller's service binding sets: `props = { tenant = "acme" }` (wrangler.toml). */
export type RpcProps = { readonly tenant?: string };

export type RpcStartOptions = {
  readonly runId?: string;
  readonly idempotencyKey?: string;
  readonly location?: z.infer<typeof StartRunBody>["location"];
  /** Seconds (at most 60) to wait for the run to end before answering. */
  readonly wait?: number;
  /** The caller's W3C `traceparent`: the run's trace becomes a child of that span (docs/observability.md). */
  readonly traceparent?: string;
  /** At most 16 tags (`key` → `value`), as `tags` in the HTTP start (else `run_tags_invalid`). */
  readonly tags?: Readonly<Record<string, string>>;
};

// Every argument object is strict: a misspelled option (`{ waitt: 30 }`) is refused with
// invalid_request rather than silently ignored, and null or a non-object is refused the same way.
const TriggerOptions = z.strictObject({
  idempotencyKey: z.string().min(1).max(255).optional(),
  wait: z.number().min(0).max(60).optional(),
});
const StartOptions = z.strictObject({
  ...TriggerOptions.shape,
  runId: StartRunBody.shape.runId,
  location: StartRunBody.shape.location,
  traceparent: z.string().max(256).optional(),
  // Checked by the start service (run_tags_invalid), like the HTTP body's.
  tags: z.record(z.string(), z.string()).optional(),
});
const RunId = z.string().min(1).max(255);
const ForkOptions = z.strictObject({ ...TriggerOptions.shape, dryRun: z.boolean().optional() });
const ListQuery = z.strictObject({
  workflow: z.string().optional(),
  status: z.enum(RUN_STATUSES).optional(),
  waitReason: z.enum(WAIT_REASONS).optional(),
  tag: z.union([z.string(), z.array(z.string())]).optional(),
  limit: z.number().int().min(1).max(200).optional(),
  cursor: z.string().optional(),
});
const StreamOptions = z.strictObject({ after: z.number().int().min(0).optional() });
const EventsQuery = z.strictObject({
  after: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(1_000).optional(),
  type: z.string().max(1_000).optional(),
});
const SignalName = z.string().regex(/^[a-z][a-z0-9_.-]{0,63}$/);
const SignalOptions = z.strictObject({
  id: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[A-Za-z0-9._:-]+$/)
    .optional(),
});
const DeleteOptions = z.strictObject({ cancel: z.boolean().optional() });
const Decision = z.strictObject({
  decision: z.enum(["approve", "deny"]),
  argsHash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  reason: z.string().max(1_000).optional(),
});

/**
 * The /v1 run operations over Workers RPC, for another Worker of the same account through a
 * service binding: no token. The tenant is the binding's `props.tenant`, else the Worker var
 * `LITTLE_RPC_TENANT`, else `default` (docs/client.md, "Service bindings"). Starts and reads take
 * the HTTP API's own path (run-operations.ts), so ids, idempotency, quotas, validation and errors
 * are the same; a failure is thrown as a `LittleRpcError` with the API's code.
 *
 * @example
 * // the caller's wrangler.toml
 * // services = [{ binding = "LITTLE", service = "little-workflow", entrypoint = "LittleWorkflowEntrypoint", props = { tenant = "acme" } }]
 * const run = await env.LITTLE.startRun("support.summarize-ticket", { ticketId: "T-1", transcript: "…" }, { wait: 30 });
 */
export class LittleWorkflowEntrypoint extends WorkerEntrypoint<Env & ApiVars, RpcProps> {
  /** Starts a run of a registered workflow (trigger kind `programmatic`); the same checks as `POST /v1/workflows/:id/runs`. */
  async startRun(workflowId: string, input: unknown, options: RpcStartOptions = {}): Promise<RpcRun> {
    return this.call(async (services, tenant) => {
      const rest = parse(StartOptions, options, "options");
      const started = await startTenantRun(services, tenant, {
        workflowId: parse(RunId, workflowId, "workflowId"),
        input,
        runId: rest.runId,
        location: rest.location,
        idempotencyKey: rest.idempotencyKey,
        wait: rest.wait,
        triggerKind: "programmatic",
        traceparent: rest.traceparent,
        tags: rest.tags,
      });
      return asJson<RpcRun>({ ...toRun(started.view), placement: started.placement });
    });
  }

  /** A run as it is now (status, version, output or cause, usage); another tenant's is `run_not_found`. */
  async getRun(runId: string): Promise<RpcRun> {
    return this.call(async (services, tenant) => {
      const { view, placement } = await readRun(services, tenant, parse(RunId, runId, "runId"));
      return asJson<RpcRun>({ ...toRun(view), placement: { ...placement, jurisdictionEnforced: false } });
    });
  }

  /** Waits up to `seconds` (at most 60) for a run to end or a section to wait, then answers it as it is. */
  async waitForRun(runId: string, seconds = 60): Promise<RpcRun> {
    return this.call(async (services, tenant) => {
      const wait = parse(z.number().min(0).max(60), seconds, "seconds");
      const { view, client } = await readRun(services, tenant, parse(RunId, runId, "runId"));
      if (isSettledStatus(view.status, view.waitReason) || view.status === "minted") return asJson<RpcRun>(toRun(view));
      return asJson<RpcRun>(toRun(await client.waitForEnd(wait * 1_000)));
    });
  }

  /** One page of the tenant's runs, newest first; pass `nextCursor` back as `cursor`. */
  async listRuns(query: z.input<typeof ListQuery> = {}): Promise<RpcRunsPage> {
    return this.call(async (services, tenant) =>
      asJson<RpcRunsPage>(await listTenantRuns(services, tenant, parse(ListQuery, query, "query"))),
    );
  }

  /** Cancels a run; a run that has ended is answered unchanged. */
  async cancel(runId: string, reason = "cancelled through a service binding"): Promise<RpcRun> {
    return this.call(async (services, tenant) =>
      asJson<RpcRun>(
        toRun(await cancelTenantRun(services, tenant, parse(RunId, runId, "runId"), parse(z.string().max(1_000), reason, "reason"))),
      ),
    );
  }

  /** Pauses a run: nothing new starts until `resumeRun` (docs/runs.md, "Pause and resume"); an ended run is `run_ended`. */
  async pauseRun(runId: string): Promise<RpcRun> {
    return this.call(async (services, tenant) =>
      asJson<RpcRun>(toRun(await pauseTenantRun(services, tenant, parse(RunId, runId, "runId"), "pause", "rpc"))),
    );
  }

  /** Resumes a paused run; a run that is not paused is answered unchanged. */
  async resumeRun(runId: string): Promise<RpcRun> {
    return this.call(async (services, tenant) =>
      asJson<RpcRun>(toRun(await pauseTenantRun(services, tenant, parse(RunId, runId, "runId"), "resume", "rpc"))),
    );
  }

  /** A page of a run's events (`seq > after`, at most `limit`, `type` filtered as over HTTP). */
  async listEvents(runId: string, query: z.input<typeof EventsQuery> = {}): Promise<RpcEventsPage> {
    return this.call(async (services, tenant) => {
      const q = parse(EventsQuery, query, "query");
      return asJson<RpcEventsPage>(await listTenantEvents(services, tenant, parse(RunId, runId, "runId"), q));
    });
  }

  /**
   * The run's events and live model output as Server-Sent Events bytes, as `GET /v1/runs/:runId/stream`
   * (`after`: resume after that seq). Read it with any SSE parser; it ends after the terminal event.
   */
  async streamRun(runId: string, options: z.input<typeof StreamOptions> = {}): Promise<ReadableStream<Uint8Array>> {
    return this.call(async (services, tenant) => {
      const { after } = parse(StreamOptions, options, "options");
      const { client } = await findTenantRun(services, tenant, parse(RunId, runId, "runId"));
      return client.stream(after ?? 0, { deltas: true });
    });
  }

  /** Queues an occurrence of a section run, as `POST /v1/runs/:runId/triggers`. */
  async trigger(runId: string, input: unknown, options: z.input<typeof TriggerOptions> = {}): Promise<RpcOccurrence> {
    return this.call(async (services, tenant) => {
      const rest = parse(TriggerOptions, options, "options");
      const queued = await queueOccurrence({
        env: this.env,
        services,
        tenant,
        runId: parse(RunId, runId, "runId"),
        input,
        trigger: { kind: "programmatic", ...(rest.idempotencyKey ? { id: rest.idempotencyKey } : {}) },
        origin: "rpc://little-workflow",
        ...(rest.wait ? { waitMs: rest.wait * 1_000 } : {}),
      });
      const { links: _links, ...body } = queued.body;
      return asJson<RpcOccurrence>(body);
    });
  }

  /** A run's tool calls held for approval, with the hash a decision must quote. */
  async listApprovals(runId: string): Promise<RpcApproval[]> {
    return this.call(async (services, tenant) => {
      const { client } = await findTenantRun(services, tenant, parse(RunId, runId, "runId"));
      return asJson<RpcApproval[]>((await client.status()).approvals ?? []);
    });
  }

  /** Approves or denies a held tool call; `argsHash` must be the one `listApprovals` showed. */
  async decideApproval(runId: string, approvalId: string, decision: z.input<typeof Decision>): Promise<RpcDecision> {
    return this.call(async (services, tenant) => {
      const d = parse(Decision, decision, "decision");
      const { client } = await findTenantRun(services, tenant, parse(RunId, runId, "runId"));
      const result = await client.decideApproval({
        approvalId: parse(RunId, approvalId, "approvalId"),
        decision: d.decision === "approve" ? "approved" : "denied",
        argsHash: d.argsHash,
        ...(d.reason ? { reason: d.reason } : {}),
      });
      return asJson<RpcDecision>({ approval: result.approval, created: result.created, run: toRun(await client.status()) });
    });
  }

  /**
   * Sends a signal to a run, as `POST /v1/runs/:runId/signals`: durable in its log before this
   * answers; `id` makes a resend idempotent.
   *
   * @example
   * await env.LITTLE.sendSignal(runId, "manager.decision", { approved: true }, { id: "decision-42" });
   */
  async sendSignal(runId: string, name: string, payload: unknown, options: z.input<typeof SignalOptions> = {}): Promise<RpcSignal> {
    return this.call(async (services, tenant) => {
      const { id } = parse(SignalOptions, options, "options");
      const sent = await sendTenantSignal(services, tenant, parse(RunId, runId, "runId"), {
        name: parse(SignalName, name, "name"),
        payload,
        ...(id !== undefined ? { id } : {}),
      });
      return asJson<RpcSignal>(sent);
    });
  }

  /** Restarts an ended run from a step (default its first failed step), as `POST /v1/runs/:runId/restart`. */
  async restartRun(runId: string, options: z.input<typeof RestartBody> & z.input<typeof TriggerOptions> = {}): Promise<RpcForked> {
    return this.call(async (services, tenant) => {
      const { fromStep, ...rest } = parse(RestartBody.extend(TriggerOptions.shape).strict(), options, "options");
      const restarted = await restartRun(services, tenant, parse(RunId, runId, "runId"), {
        fromStep,
        idempotencyKey: rest.idempotencyKey,
        waitMs: rest.wait ? rest.wait * 1_000 : undefined,
      });
      return asJson<RpcForked>({
        run: toRun(restarted.view),
        plan: { ...restarted.plan, sourceRunId: runId, fromStep: restarted.fromStep },
      });
    });
  }

  /** Forks an ended run with edits (`input`, `models`, `steps`, `lwir`), as `POST /v1/runs/:runId/fork`; `dryRun` plans only. */
  async forkRun(runId: string, edits: z.input<typeof ForkBody>, options: z.input<typeof ForkOptions> = {}): Promise<RpcForked> {
    return this.call(async (services, tenant) => {
      const body = parse(ForkBody, edits, "edits");
      const rest = parse(ForkOptions, options, "options");
      const forked = await forkRun(services, tenant, parse(RunId, runId, "runId"), {
        ...body,
        idempotencyKey: rest.idempotencyKey,
        dryRun: rest.dryRun,
        waitMs: rest.wait ? rest.wait * 1_000 : undefined,
      });
      const { steps, estimate, sideEffects, sourceRunId, versionId } = forked;
      const plan = { steps, estimate, sideEffects, sourceRunId, versionId };
      return asJson<RpcForked>(forked.dryRun ? { plan } : { run: toRun(forked.view), plan });
    });
  }

  /** Two runs step by step, as `GET /v1/runs/:a/compare/:b`. */
  async compareRuns(runId: string, otherRunId: string): Promise<RpcComparison> {
    return this.call(async (services, tenant) =>
      asJson<RpcComparison>(await compareRuns(services, tenant, parse(RunId, runId, "runId"), parse(RunId, otherRunId, "otherRunId"))),
    );
  }

  /** Deletes an ended run and all its data, as `DELETE /v1/runs/:runId`; `cancel` cancels a live one first. */
  async deleteRun(runId: string, options: z.input<typeof DeleteOptions> = {}): Promise<DeletedRun> {
    return this.call(async (services, tenant) => {
      const { cancel } = parse(DeleteOptions, options, "options");
      return deleteTenantRun(services, tenant, parse(RunId, runId, "runId"), { cancel: cancel === true, by: "rpc" });
    });
  }

  /** Starts a bulk job (`cancel` or `delete` every run a filter matches), as `POST /v1/runs/bulk`. */
  async startBulkAction(request: BulkRequest): Promise<RpcBulkJob> {
    return this.call(async (services, tenant) =>
      asJson<RpcBulkJob>(
        await startBulkJob(services, tenant, { mayDelete: true, by: "rpc" }, parse(BulkRequestBody.strict(), request, "request")),
      ),
    );
  }

  /** A bulk job's progress, as `GET /v1/runs/bulk/:jobId`. */
  async getBulkAction(jobId: string): Promise<RpcBulkJob> {
    return this.call(async (services, tenant) => asJson<RpcBulkJob>(await readBulkJob(services, tenant, parse(RunId, jobId, "jobId"))));
  }

  /** The tenant the binding acts for: its `props.tenant`, else LITTLE_RPC_TENANT, else `default`. */
  private tenant(): string {
    const tenant = this.ctx.props?.tenant ?? this.env.LITTLE_RPC_TENANT ?? "default";
    if (typeof tenant !== "string" || !TENANT_PATTERN.test(tenant))
      throw new ApiError("invalid_request", `The service binding's tenant ${JSON.stringify(tenant)} is not a tenant name`);
    return tenant;
  }

  /** Runs one operation with the isolate's wiring, every failure thrown as a LittleRpcError. */
  private async call<T>(operation: (services: ApiServices, tenant: string) => Promise<T>): Promise<T> {
    try {
      assertSecureConfiguration(this.env);
      return await operation(wire(this.env) as ApiServices, this.tenant());
    } catch (error) {
      throw toRpcError(error);
    }
  }
}

/** Arguments checked as the HTTP routes check requests: `invalid_request` with one finding per problem. */
function parse<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ApiError("invalid_request", `The call's argument \`${what}\` is invalid`, { findings: zodFindings(result.error.issues) });
}
