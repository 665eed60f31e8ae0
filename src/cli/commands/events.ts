import { type LittleClient, LittleClientError, type ModelDelta } from "../../client/index.ts";
import { clientFrom } from "../api-client.ts";
import { integerFlag, nonEmptyFlag, parseCommand } from "../args.ts";
import { CliInputError } from "../cli-error.ts";
import { DeltaPrinter } from "../delta-printer.ts";
import { formatEventLine, isWireEvent, RunFollower, typeMatcher, type WireEvent } from "../event-summary.ts";
import { colorEnabled, type Paint, painter, print } from "../output.ts";
import { EVENTS_USAGE } from "../usage.ts";

/**
 * `little events <run-id>`: the run's events, one a line (or NDJSON with `--json`). Without
 * `--follow` it pages through what is logged now (following `nextAfter`); with `--follow` it reads
 * the SSE stream (the client reconnects with `Last-Event-ID` when the connection drops) until the
 * terminal event. `--follow --deltas` reads `streamRun` instead and prints the model output of the
 * calls in flight as it is written (NDJSON `{ "type": "delta", "delta" }` lines with `--json`).
 */
export async function eventsCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommand(
    "events",
    args,
    { follow: { type: "boolean", short: "f" }, deltas: { type: "boolean" }, type: { type: "string" }, after: { type: "string" } },
    { min: 1, max: 1, names: "the run id" },
  );
  if (values.help) {
    print(`usage: little ${EVENTS_USAGE}`);
    return 0;
  }
  const runId = positionals[0] as string;
  const after = integerFlag("events", "after", values.after, 0);
  const type = nonEmptyFlag("events", "type", values.type);
  const client = clientFrom(values);
  const paint = painter(colorEnabled());
  const emit = (event: WireEvent) => print(values.json ? JSON.stringify(event) : formatEventLine(event, paint));
  if (values.deltas && !values.follow)
    throw new CliInputError("usage", "--deltas needs --follow: live model output exists only while the run runs");
  if (values.follow && values.deltas) {
    const printer = new DeltaPrinter((text) => process.stdout.write(text), paint);
    await followWithDeltas(
      client,
      runId,
      after,
      typeMatcher(type),
      (event) => {
        printer.endLine();
        emit(event);
      },
      (delta) => (values.json ? print(JSON.stringify({ type: "delta", delta })) : printer.delta(delta)),
    );
    printer.endLine();
  } else if (values.follow) await follow(client, runId, after, typeMatcher(type), emit);
  else await page(client, runId, after, type, emit, paint, values.json === true);
  return 0;
}

async function page(
  client: LittleClient,
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
    const body = await client.listEvents(runId, { after: cursor, type });
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
 * Prints the run's live events until its terminal event. The client's stream resumes after a
 * dropped connection and never repeats an event; `--type` filters here, since the stream itself is
 * unfiltered so the terminal event is always seen.
 */
async function follow(
  client: LittleClient,
  runId: string,
  after: number | undefined,
  matches: (type: string) => boolean,
  emit: (event: WireEvent) => void,
): Promise<void> {
  const run = new RunFollower();
  for await (const event of client.events(runId, after !== undefined ? { after } : {})) {
    const wire = event as unknown as WireEvent;
    if (!isWireEvent(wire)) throw badEvent(wire);
    if (matches(wire.type)) emit(wire);
    run.apply(wire);
    if (run.ended) return;
  }
}

/** As {@link follow}, over `streamRun`: the model output of calls in flight goes to `onDelta` as it arrives. */
async function followWithDeltas(
  client: LittleClient,
  runId: string,
  after: number | undefined,
  matches: (type: string) => boolean,
  emit: (event: WireEvent) => void,
  onDelta: (delta: ModelDelta) => void,
): Promise<void> {
  const run = new RunFollower();
  for await (const item of client.streamRun(runId, after !== undefined ? { after } : {})) {
    if (item.type === "delta") {
      onDelta(item.delta);
      continue;
    }
    const wire = item.event as unknown as WireEvent;
    if (!isWireEvent(wire)) throw badEvent(wire);
    if (matches(wire.type)) emit(wire);
    run.apply(wire);
    if (run.ended) return;
  }
}

function badEvent(value: unknown): LittleClientError {
  return new LittleClientError({
    code: "bad_response",
    message: `the server sent an event without seq and type: ${JSON.stringify(value)?.slice(0, 120)}`,
  });
}
