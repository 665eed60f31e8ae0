/**
 * The read check's cost (issue 25, point 5): every stored event row is parsed and checked against
 * the event union's schema when an event log reads it. Not a scenario of `npm run bench` (no
 * Worker, no peer): run it alone with `node bench/event-decode.ts`. It reads the saved histories
 * (test/histories: real logs, every kind of event a run writes) and times, per event,
 * JSON.parse alone (what a read cost before) against decodeStoredEvent (JSON.parse plus the
 * schema check). workerd forbids `new Function`, so zod runs there without its compiled object
 * parsers: `LITTLE_ZOD_JITLESS=1` measures that path (the one production takes).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";
import { decodeStoredEvent, type StoredEventRow } from "../src/ports/events/decode-stored-event.ts";

if (process.env.LITTLE_ZOD_JITLESS === "1") z.config({ jitless: true });

const dir = resolve(import.meta.dirname, "../test/histories");
const rows: StoredEventRow[] = readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .flatMap(
    (f) =>
      (JSON.parse(readFileSync(join(dir, f), "utf8")) as { events: { seq: number; type: string; at: number; payload: unknown }[] }).events,
  )
  .map((e) => ({ seq: e.seq, type: e.type, at: e.at, payload: JSON.stringify(e.payload) }));

const ROUNDS = Number(process.env.ROUNDS ?? 10_000);
const bytes = rows.reduce((n, r) => n + r.payload.length, 0);

function time(label: string, read: (row: StoredEventRow) => unknown): number {
  for (let i = 0; i < 200; i++) for (const row of rows) read(row); // warm up
  const start = performance.now();
  for (let i = 0; i < ROUNDS; i++) for (const row of rows) read(row);
  const perEvent = ((performance.now() - start) * 1000) / (ROUNDS * rows.length);
  console.log(`${label.padEnd(44)} ${perEvent.toFixed(2)} µs/event`);
  return perEvent;
}

console.log(
  `${rows.length} events (${Math.round(bytes / rows.length)} bytes of payload on average), ${ROUNDS} rounds, zod ${process.env.LITTLE_ZOD_JITLESS === "1" ? "jitless (as in workerd)" : "with JIT"}`,
);
const parse = time("JSON.parse only (before)", (row) => JSON.parse(row.payload));
const decode = time("decodeStoredEvent (parse + schema check)", (row) => decodeStoredEvent("run", row));
console.log(`${"schema check alone".padEnd(44)} ${(decode - parse).toFixed(2)} µs/event`);
