import { setTimeout as sleep } from "node:timers/promises";
import { ApiClient, connectionFrom, segment } from "../api-client.ts";
import type { EventsPage } from "../api-types.ts";
import { integerFlag, nonEmptyFlag, parseCommand } from "../args.ts";
import { CliServerError } from "../cli-error.ts";
import { formatEventLine, isWireEvent, RunFollower, typeMatcher, type WireEvent } from "../event-summary.ts";
import { colorEnabled, type Paint, painter, print } from "../output.ts";
import { SseParser } from "../sse.ts";
import { EVENTS_USAGE } from "../usage.ts";

/** Reconnect delay when the server has not set one with `retry:`; and the most we honour. */
const DEFAULT_RETRY_MS = 1000;
const MAX_RETRY_MS = 10_000;
/** Consecutive failed reconnections before `--follow` gives up with exit 3. */
const MAX_CONNECT_FAILURES = 8;

/**
 * `little events <run-id>`: the run's events, one a line (or NDJSON with `--json`). Without
 * `--follow` it pages through what is logged now (following `nextAfter`); with `--follow` it reads
 * the SSE stream, reconnecting with `Last-Event-ID` when the connection drops, until the terminal event.
 */
export async function eventsCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommand(
    "events",
    args,
    { follow: { type: "boolean", short: "f" }, type: { type: "string" }, after: { type: "string" } },
    { min: 1, max: 1, names: "the run id" },
  );
  if (values.help) {
    print(`usage: little ${EVENTS_USAGE}`);
    return 0;
  }
  const runId = positionals[0] as string;
  const after = integerFlag("events", "after", values.after, 0);
  const type = nonEmptyFlag("events", "type", values.type);
  const client = new ApiClient(connectionFrom(values));
  const paint = painter(colorEnabled());
  const emit = (event: WireEvent) => print(values.json ? JSON.stringify(event) : formatEventLine(event, paint));
  if (values.follow) await follow(client, runId, after, typeMatcher(type), emit);
  else await page(client, runId, after, type, emit, paint, values.json === true);
  return 0;
}

async function page(
  client: ApiClient,
  runId: string,
  after: number | undefined,
  type: string | undefined,
  emit: (event: WireEvent) => void,
  paint: Paint,
  json: boolean,
): Promise<void> {
  let cursor = after;
  let count = 0;
  for (;;) {
    const { body } = await client.get<EventsPage>(`/v1/runs/${segment(runId)}/events`, { query: { after: cursor, type } });
    const events = Array.isArray(body.events) ? body.events : [];
    for (const event of events) {
      if (!isWireEvent(event)) throw badEvent(event);
      emit(event);
      count++;
    }
    const next = body.nextAfter;
    // Stop when there is no next page, and never loop on a cursor that does not move forward.
    if (typeof next !== "number" || (cursor !== undefined && next <= cursor) || events.length === 0) break;
    cursor = next;
  }
  if (count === 0 && !json)
    process.stderr.write(paint("dim", `no events${type ? ` of type ${type}` : ""}${after !== undefined ? ` after ${after}` : ""}\n`));
}

/**
 * Reads `GET /v1/runs/:id/events/stream` until a terminal event. A dropped or ended connection is
 * reopened with `Last-Event-ID` set to the last seq seen (after the server's `retry:` delay); events
 * at or below it are never printed twice. `--type` filters here: the stream itself is unfiltered,
 * so the terminal event is always seen.
 */
async function follow(
  client: ApiClient,
  runId: string,
  after: number | undefined,
  matches: (type: string) => boolean,
  emit: (event: WireEvent) => void,
): Promise<void> {
  let lastSeq = after ?? 0;
  let lastEventId: string | undefined = after !== undefined ? String(after) : undefined;
  let retryMs = DEFAULT_RETRY_MS;
  let failures = 0;
  let connected = false;
  const run = new RunFollower();
  for (;;) {
    const controller = new AbortController();
    const parser = new SseParser();
    let ended = false;
    try {
      const response = await client.stream(`/v1/runs/${segment(runId)}/events/stream`, { "last-event-id": lastEventId }, controller.signal);
      failures = 0;
      connected = true;
      if (!response.body) throw new CliServerError({ code: "bad_response", message: "the event stream has no body" }, response.status);
      const decoder = new TextDecoder();
      const handle = (messages: ReturnType<SseParser["push"]>) => {
        for (const message of messages) {
          let event: unknown;
          try {
            event = JSON.parse(message.data);
          } catch {
            throw new CliServerError({ code: "bad_response", message: `event ${message.id ?? "?"} on the stream is not JSON` });
          }
          if (!isWireEvent(event)) throw badEvent(event);
          if (event.seq <= lastSeq) continue;
          lastSeq = event.seq;
          lastEventId = String(event.seq);
          if (matches(event.type)) emit(event);
          run.apply(event);
          if (run.ended) {
            ended = true;
            return;
          }
        }
      };
      try {
        for await (const chunk of response.body) {
          handle(parser.push(decoder.decode(chunk as Uint8Array, { stream: true })));
          if (parser.retryMs !== undefined) retryMs = Math.min(parser.retryMs, MAX_RETRY_MS);
          if (ended) break;
        }
        if (!ended) handle(parser.push(decoder.decode()).concat(parser.end()));
      } catch (error) {
        if (error instanceof CliServerError) throw error;
        // The connection dropped mid-stream: fall through and reconnect.
      }
      if (ended) return;
    } catch (error) {
      // Nothing to resume before the first connection: an unreachable server fails at once.
      if (!(error instanceof CliServerError) || !retriable(error) || !connected) throw error;
      failures++;
      if (failures >= MAX_CONNECT_FAILURES) throw error;
    } finally {
      controller.abort();
    }
    await sleep(retryMs);
  }
}

/** Reconnect on network failures and on 5xx gateway-style answers; 4xx (e.g. run_not_found) are final. */
function retriable(error: CliServerError): boolean {
  if (error.code === "server_unreachable") return true;
  return error.status === 502 || error.status === 503 || error.status === 504;
}

function badEvent(value: unknown): CliServerError {
  return new CliServerError({
    code: "bad_response",
    message: `the server sent an event without seq and type: ${JSON.stringify(value)?.slice(0, 120)}`,
  });
}
