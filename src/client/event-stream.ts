import type { ModelDelta } from "../ports/live-output.ts";
import { isTerminalType } from "../ports/run-events.ts";
import { isEndedStatus } from "../ports/run-status.ts";
import type { RunEvent } from "./api-types.ts";
import { LittleClientError } from "./client-error.ts";
import { type SseMessage, SseParser } from "./sse-parser.ts";
import { segment, type Transport } from "./transport.ts";

export type EventStreamOptions = {
  /** Start after this event's `seq` (sent as `Last-Event-ID`); default: from the first event. */
  readonly after?: number;
  /** Ends the iteration (the open connection is closed). */
  readonly signal?: AbortSignal;
  /** Consecutive failed reconnections before the error is thrown (default 8). */
  readonly maxReconnects?: number;
  /** Bearer token for this stream, instead of the client's. */
  readonly token?: string;
};

/** The reconnect delay when the server has not set one with `retry:`, and the longest one honoured. */
const DEFAULT_RETRY_MS = 1000;
const MAX_RETRY_MS = 10_000;

/** What `streamRun` yields: a logged event, or a delta of a model call in flight (never journaled). */
export type RunStreamItem = { readonly type: "event"; readonly event: RunEvent } | { readonly type: "delta"; readonly delta: ModelDelta };

/**
 * A run's events from `GET /v1/runs/:runId/events/stream`, in order, each once, until the
 * terminal event (RunCompleted, RunFailed or RunCancelled). A dropped connection is reopened with
 * `Last-Event-ID` (after the server's `retry:` delay); events at or below the last seen `seq` are
 * skipped. A stream that closes with nothing new is checked with `getRun`: a run that has ended
 * (resumed past its terminal event) ends the iteration.
 */
export async function* followEvents(
  transport: Transport,
  runId: string,
  runStatus: () => Promise<string>,
  options: EventStreamOptions = {},
): AsyncGenerator<RunEvent, void, undefined> {
  for await (const item of followRunStream(transport, `/v1/runs/${segment(runId)}/events/stream`, runStatus, options)) {
    if (item.type === "event") yield item.event;
  }
}

/**
 * The SSE stream at `path` (the events stream, or `GET /v1/runs/:runId/stream` with its deltas),
 * read as {@link followEvents} describes. Deltas pass through as they come: each carries its
 * `offset`, so the text so far that a reconnection sends again (at offset 0) replaces, never repeats.
 */
export async function* followRunStream(
  transport: Transport,
  path: string,
  runStatus: () => Promise<string>,
  options: EventStreamOptions = {},
): AsyncGenerator<RunStreamItem, void, undefined> {
  let lastSeq = options.after ?? 0;
  let retryMs = DEFAULT_RETRY_MS;
  let failures = 0;
  let connected = false;
  const maxReconnects = options.maxReconnects ?? 8;
  while (!options.signal?.aborted) {
    const controller = new AbortController();
    const abort = () => controller.abort(options.signal?.reason);
    options.signal?.addEventListener("abort", abort, { once: true });
    let delivered = 0;
    let droppedEarly = false;
    try {
      const headers = { "last-event-id": lastSeq > 0 || options.after !== undefined ? String(lastSeq) : undefined };
      const response = await transport.stream(
        path,
        options.token ? { ...headers, authorization: `Bearer ${options.token}` } : headers,
        controller.signal,
      );
      failures = 0;
      connected = true;
      if (!response.body)
        throw new LittleClientError({ code: "bad_response", message: "the event stream has no body" }, { status: response.status });
      const parser = new SseParser();
      const decoder = new TextDecoder();
      const reader = response.body.getReader();
      try {
        for (;;) {
          let chunk: ReadableStreamReadResult<Uint8Array>;
          try {
            chunk = await reader.read();
          } catch {
            // The connection dropped mid-stream: reconnect below (unless the caller aborted).
            droppedEarly = true;
            break;
          }
          const messages = chunk.done
            ? parser.push(decoder.decode()).concat(parser.end())
            : parser.push(decoder.decode(chunk.value, { stream: true }));
          if (parser.retryMs !== undefined) retryMs = Math.min(parser.retryMs, MAX_RETRY_MS);
          for (const message of messages) {
            if (message.event === "delta") {
              yield { type: "delta", delta: deltaOf(message) };
              continue;
            }
            const event = eventOf(message);
            if (event.seq <= lastSeq) continue;
            lastSeq = event.seq;
            delivered++;
            yield { type: "event", event };
            if (isTerminalType(event.type)) return;
          }
          if (chunk.done) break;
        }
      } finally {
        reader.cancel().catch(() => undefined);
      }
    } catch (error) {
      if (options.signal?.aborted) return;
      // Nothing to resume before the first connection: an unreachable server fails at once.
      if (!(error instanceof LittleClientError) || !retriable(error) || !connected) throw error;
      failures++;
      if (failures >= maxReconnects) throw error;
    } finally {
      options.signal?.removeEventListener("abort", abort);
      controller.abort();
    }
    if (options.signal?.aborted) return;
    // Closed cleanly with nothing new: the run may have ended before we resumed.
    if (delivered === 0 && !droppedEarly && failures === 0 && isEndedStatus(await runStatus())) return;
    await sleep(retryMs, options.signal);
  }
}

function deltaOf(message: SseMessage): ModelDelta {
  const delta = parsed(message) as Partial<ModelDelta> | null;
  if (typeof delta?.callId !== "string" || typeof delta.offset !== "number" || typeof delta.text !== "string") {
    throw new LittleClientError({
      code: "bad_response",
      message: `the server sent a delta without callId, offset and text: ${message.data.slice(0, 120)}`,
    });
  }
  return delta as ModelDelta;
}

function parsed(message: SseMessage): unknown {
  try {
    return JSON.parse(message.data);
  } catch {
    throw new LittleClientError({ code: "bad_response", message: `message ${message.id ?? message.event} on the stream is not JSON` });
  }
}

function eventOf(message: SseMessage): RunEvent {
  let event: unknown;
  try {
    event = JSON.parse(message.data);
  } catch {
    throw new LittleClientError({ code: "bad_response", message: `event ${message.id ?? "?"} on the stream is not JSON` });
  }
  const e = event as { seq?: unknown; type?: unknown } | null;
  if (typeof e?.seq !== "number" || typeof e.type !== "string") {
    throw new LittleClientError({
      code: "bad_response",
      message: `the server sent an event without seq and type: ${JSON.stringify(event)?.slice(0, 120)}`,
    });
  }
  return event as RunEvent;
}

/** Reconnect on network failures and on 5xx gateway-style answers; 4xx (e.g. run_not_found) are final. */
function retriable(error: LittleClientError): boolean {
  if (error.code === "server_unreachable") return true;
  return error.status === 502 || error.status === 503 || error.status === 504;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
