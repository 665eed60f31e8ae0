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
 * instead (one JSON line, `little.dead-letter`), so the message is never lost silently. A failed
 * send throws: the caller retries the message rather than dropping it.
 */
export async function sendDeadLetter(env: Env, letter: DeadLetter): Promise<"queued" | "logged"> {
  const queue = (env as unknown as { LITTLE_DEAD_LETTERS?: DeadLetterQueue }).LITTLE_DEAD_LETTERS;
  if (typeof queue?.send !== "function") {
    console.error(JSON.stringify(letter));
    return "logged";
  }
  await queue.send(letter, { contentType: "json" });
  return "queued";
}
