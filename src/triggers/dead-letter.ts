import { digestJson, digestText } from "../json/digest.ts";
import type { Finding } from "../sdk/finding.ts";

/**
 * What the dead-letter queue receives for a message no retry can start: the cause (a stable code:
 * `input_schema_error`, `workflow_not_found`, `message_invalid`, or for a message that used up its
 * retries the code of its last failure), why, and the message as it came. Only a message whose
 * dead letter could not be sent on its last attempt reaches the queue as its bare body (Cloudflare
 * moves it there itself).
 */
export type DeadLetter = {
  readonly kind: "little.dead-letter";
  readonly cause: string;
  readonly message: string;
  readonly findings?: readonly Finding[];
  readonly queue: string;
  readonly messageId: string;
  readonly attempts: number;
  /** ISO time the message was given up on. */
  readonly at: string;
  readonly body: unknown;
};

/** The producer binding of the dead-letter queue (`[[queues.producers]] binding = "LITTLE_DEAD_LETTERS"`). */
type DeadLetterQueue = { send(body: unknown, options?: { contentType?: "json" }): Promise<unknown> };

/**
 * Sends a dead letter to `LITTLE_DEAD_LETTERS`. A Worker without that binding logs the letter
 * instead (one JSON line, `little.dead-letter`: {@link deadLetterLogLine}), so the message is never
 * lost silently. A failed send throws: the caller retries the message rather than dropping it.
 */
export async function sendDeadLetter(env: Env, letter: DeadLetter): Promise<"queued" | "logged"> {
  const queue = (env as unknown as { LITTLE_DEAD_LETTERS?: DeadLetterQueue }).LITTLE_DEAD_LETTERS;
  if (typeof queue?.send !== "function") {
    console.error(JSON.stringify(deadLetterLogLine(letter)));
    return "logged";
  }
  await queue.send(letter, { contentType: "json" });
  return "queued";
}

/**
 * What the logs keep of a dead letter: its cause, where it came from, the workflow it names and a
 * digest of its body, never the body or the findings' messages. A message's input may hold
 * personal data, and logs are kept and read more widely than a queue; the digest matches the body
 * a producer still holds.
 */
export function deadLetterLogLine(letter: DeadLetter): Record<string, unknown> {
  const workflowId = workflowIdOf(letter.body);
  return {
    kind: "little.dead-letter",
    cause: letter.cause,
    queue: letter.queue,
    messageId: letter.messageId,
    attempts: letter.attempts,
    at: letter.at,
    ...(workflowId ? { workflowId } : {}),
    // A letter read back from the queue is not trusted to have the shape this Worker sends.
    ...(Array.isArray(letter.findings) ? { findings: letter.findings.map((f) => ({ code: f?.code, path: f?.path })) } : {}),
    bodyDigest: bodyDigest(letter.body),
  };
}

/** The workflow a body names, when it is an object or JSON text with a string `workflowId`. */
function workflowIdOf(body: unknown): string | undefined {
  let value = body;
  if (typeof body === "string") {
    try {
      value = JSON.parse(body);
    } catch {
      return undefined;
    }
  }
  const workflowId = typeof value === "object" && value !== null ? (value as { workflowId?: unknown }).workflowId : undefined;
  return typeof workflowId === "string" ? workflowId.slice(0, 200) : undefined;
}

/** sha256 of the body's canonical JSON; a body that is not JSON data is digested as its JSON text. */
function bodyDigest(body: unknown): string {
  try {
    return digestJson(body);
  } catch {
    try {
      return digestText(JSON.stringify(body) ?? String(body));
    } catch {
      return "undigestible";
    }
  }
}
