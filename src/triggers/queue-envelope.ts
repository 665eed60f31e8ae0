import { TENANT_PATTERN } from "../sdk/names.ts";

/**
 * The body of a message on the runs queue: which workflow to start, with what input, for which
 * tenant (default `LITTLE_TRIGGER_TENANT`, else `default`).
 *
 * @example
 * await env.LITTLE_RUNS_QUEUE.send({ workflowId: "support.summarize-ticket", input: { ticketId: "T-1", transcript: "…" } });
 */
export type RunMessage = {
  readonly workflowId: string;
  readonly input?: unknown;
  readonly tenant?: string;
  /** Replaces the message id as the idempotency key: a producer that sends one start twice gets one run. */
  readonly idempotencyKey?: string;
  /** The producer's W3C `traceparent`: the run's trace joins the producer's (docs/observability.md). */
  readonly traceparent?: string;
  /** The run's tags (`key` → `value`, at most 16); broken ones dead-letter the message (`run_tags_invalid`). */
  readonly tags?: Readonly<Record<string, string>>;
};

export type ParsedRunMessage =
  | {
      readonly ok: true;
      readonly workflowId: string;
      readonly input: unknown;
      readonly tenant?: string;
      readonly idempotencyKey?: string;
      readonly traceparent?: string;
      /** Checked by the start service, as every start's tags are. */
      readonly tags?: unknown;
    }
  | { readonly ok: false; readonly message: string };

/** Reads a message body as a {@link RunMessage}; a text body holding JSON is parsed first. */
export function parseRunMessage(body: unknown): ParsedRunMessage {
  let value = body;
  if (typeof body === "string") {
    try {
      value = JSON.parse(body);
    } catch {
      return { ok: false, message: "The message body is text that is not JSON" };
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { ok: false, message: "The message body is not an object { workflowId, input?, tenant? }" };
  const { workflowId, input, tenant, idempotencyKey, traceparent, tags } = value as Record<string, unknown>;
  if (typeof workflowId !== "string" || workflowId === "") return { ok: false, message: "The message body names no workflowId (a string)" };
  if (tenant !== undefined && (typeof tenant !== "string" || !TENANT_PATTERN.test(tenant)))
    return { ok: false, message: "The message's tenant is not a tenant name (1–63 of a-z, 0-9, '_' or '-')" };
  if (idempotencyKey !== undefined && (typeof idempotencyKey !== "string" || idempotencyKey.length < 1 || idempotencyKey.length > 255))
    return { ok: false, message: "The message's idempotencyKey is not a string of 1–255 characters" };
  return {
    ok: true,
    workflowId,
    input: input === undefined ? {} : input,
    ...(tenant !== undefined ? { tenant: tenant as string } : {}),
    ...(idempotencyKey !== undefined ? { idempotencyKey: idempotencyKey as string } : {}),
    // A malformed traceparent is ignored (W3C), never a reason to refuse the start.
    ...(typeof traceparent === "string" && traceparent.length <= 256 ? { traceparent } : {}),
    ...(tags !== undefined ? { tags } : {}),
  };
}
