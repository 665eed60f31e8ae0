import { runIdFor } from "../engine/runs/run-ids.ts";
import { startRun } from "../engine/runs/start-service.ts";
import { digestJson, digestPrefix } from "../json/digest.ts";
import { assertSecureConfiguration } from "../wiring/insecure-configuration.ts";
import { type Wiring, wire } from "../wiring.ts";
import { type DeadLetter, deadLetterLogLine, sendDeadLetter } from "./dead-letter.ts";
import { decideFailure } from "./failure-policy.ts";
import { parseRunMessage } from "./queue-envelope.ts";
import { isLastAttempt, queueMaxRetries } from "./queue-max-retries.ts";
import { triggerTenant } from "./trigger-tenant.ts";

/** What became of one message (also logged, one JSON line each). */
export type MessageOutcome =
  | { readonly messageId: string; readonly outcome: "started" | "already_started"; readonly runId: string; readonly tenant: string }
  | { readonly messageId: string; readonly outcome: "dead_lettered"; readonly cause: string; readonly to: "queued" | "logged" }
  | { readonly messageId: string; readonly outcome: "retried"; readonly cause: string; readonly delaySeconds: number }
  | { readonly messageId: string; readonly outcome: "dropped_dead_letter"; readonly cause: string };

/**
 * The run id of a queue message: the message id is the idempotency key, so a redelivery (a retry,
 * a second consumer) reaches the same run object, which starts the run once. A message's own
 * `idempotencyKey` replaces it and gives the run id the HTTP `Idempotency-Key` header and the RPC
 * binding give (tenant, workflow, key: `runIdFor`), so one key is one run whichever way it came.
 */
export function queueRunId(
  queue: string,
  messageId: string,
  keyed?: { tenant: string; workflowId: string; idempotencyKey: string },
): string {
  if (keyed) return runIdFor(keyed.tenant, keyed.workflowId, undefined, keyed.idempotencyKey);
  return `run_q_${digestPrefix(digestJson({ queue, messageId }), 24)}`;
}

/**
 * Consumes a batch: one run per message, each acknowledged or retried on its own (never the whole
 * batch for one message). A message that can never start (not a run message, an unknown workflow,
 * an input the schema refuses) is dead-lettered with its cause and acknowledged; a transient
 * failure is retried with backoff, and on its last attempt (`LITTLE_QUEUE_MAX_RETRIES`, equal to
 * the consumer's `max_retries`) dead-lettered with the cause of its last failure.
 */
export async function consumeRunMessages(batch: MessageBatch<unknown>, env: Env): Promise<MessageOutcome[]> {
  const services = wire(env);
  const outcomes = await Promise.all(batch.messages.map((message) => consumeOne(message, batch.queue, env, services)));
  for (const outcome of outcomes) console.log(JSON.stringify({ kind: "little.queue-message", queue: batch.queue, ...outcome }));
  return outcomes;
}

async function consumeOne(message: Message<unknown>, queue: string, env: Env, services: Wiring): Promise<MessageOutcome> {
  if (isDeadLetter(message.body)) {
    // A consumer bound to the dead-letter queue itself: sending the letter back there would loop.
    // The letter is not logged whole: its body may hold personal data (deadLetterLogLine).
    console.error(JSON.stringify({ ...deadLetterLogLine(message.body), dropped: true, droppedMessageId: message.id }));
    message.ack();
    return { messageId: message.id, outcome: "dropped_dead_letter", cause: message.body.cause };
  }
  const parsed = parseRunMessage(message.body);
  if (!parsed.ok) return deadLetter(message, queue, env, services, { cause: "message_invalid", message: parsed.message });
  const key = parsed.idempotencyKey;
  try {
    // Inside the try: a bad LITTLE_TRIGGER_TENANT retries this message, never fails the batch.
    const tenant = triggerTenant(env, parsed.tenant);
    const runId = queueRunId(queue, message.id, key ? { tenant, workflowId: parsed.workflowId, idempotencyKey: key } : undefined);
    // A deployed Worker holding well-known example values refuses every start, as its API does.
    assertSecureConfiguration(env);
    const started = await startRun(services, {
      tenant,
      workflowId: parsed.workflowId,
      input: parsed.input,
      runId,
      trigger: { kind: "queue", id: key ?? message.id },
      conflictCode: "idempotency_conflict",
      traceparent: parsed.traceparent,
      ...(parsed.tags !== undefined ? { tags: parsed.tags } : {}),
    });
    message.ack();
    return { messageId: message.id, outcome: started.created ? "started" : "already_started", runId, tenant };
  } catch (error) {
    const decision = decideFailure(error, message.attempts);
    if (decision.action === "dead-letter") return deadLetter(message, queue, env, services, decision);
    // Retrying the last attempt would hand Cloudflare's dead-letter queue the bare body: send ours, with the cause.
    if (isLastAttempt(message.attempts, queueMaxRetries(env)))
      return deadLetter(message, queue, env, services, {
        cause: decision.cause,
        message: `Gave up after ${message.attempts} attempts: ${decision.message}`,
      });
    message.retry({ delaySeconds: decision.delaySeconds });
    return { messageId: message.id, outcome: "retried", cause: decision.cause, delaySeconds: decision.delaySeconds };
  }
}

function isDeadLetter(body: unknown): body is DeadLetter {
  return typeof body === "object" && body !== null && (body as { kind?: unknown }).kind === "little.dead-letter";
}

async function deadLetter(
  message: Message<unknown>,
  queue: string,
  env: Env,
  services: Wiring,
  why: Pick<DeadLetter, "cause" | "message" | "findings">,
): Promise<MessageOutcome> {
  const letter: DeadLetter = {
    kind: "little.dead-letter",
    cause: why.cause,
    message: why.message,
    ...(why.findings ? { findings: why.findings } : {}),
    queue,
    messageId: message.id,
    attempts: message.attempts,
    // The wired clock, as every other timestamp the Worker writes (tests inject it).
    at: new Date(services.clock.now()).toISOString(),
    body: message.body,
  };
  try {
    const to = await sendDeadLetter(env, letter);
    message.ack();
    return { messageId: message.id, outcome: "dead_lettered", cause: why.cause, to };
  } catch {
    // The dead-letter queue did not take it: keep the message (retried, then Cloudflare's DLQ).
    const delaySeconds = 10;
    message.retry({ delaySeconds });
    return { messageId: message.id, outcome: "retried", cause: "dead_letter_send_failed", delaySeconds };
  }
}
