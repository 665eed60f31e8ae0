/**
 * A far database for the global-latency scenario: the D1 binding wrapped so that every round trip
 * (a statement's `first`/`run`/`all`/`raw`, a `batch`, an `exec`) waits `delay.ms` before it is
 * sent, as a Worker far from D1's primary region would, and is counted. Installed through the
 * wiring seam (bench/worker/entry.ts); `delay.ms` is 0 unless the scenario sets it
 * (`POST /bench/d1`), so every other scenario runs on the plain binding's timing.
 *
 * Counting: a round trip made inside a Worker request's async context (the bench entry runs each
 * request in {@link countD1Calls}) counts for that request; the entry reads the count when the
 * response is ready, which is the ack. Calls a run object makes in its own requests count in
 * `delay.unattributed` (they are the object's, not the caller's: the ack's latency shows them anyway).
 */
import { AsyncLocalStorage } from "node:async_hooks";

type Counter = { calls: number };

/** The configured delay (ms per round trip) and the calls no request owned. Module state: one per isolate. */
export const delay = { ms: 0, unattributed: 0 };

const perRequest = new AsyncLocalStorage<Counter>();
const ROUND_TRIPS: ReadonlySet<PropertyKey> = new Set(["first", "run", "all", "raw"]);
/** Wrapped statement → the binding's own, for `batch`, which accepts only real statements. */
const realStatement = new WeakMap<object, D1PreparedStatement>();

/** Runs `work` with a fresh per-request counter; answers its result and the round trips it made before it resolved. */
export async function countD1Calls<T>(work: () => Promise<T>): Promise<{ result: T; calls: number }> {
  const counter: Counter = { calls: 0 };
  const result = await perRequest.run(counter, work);
  return { result, calls: counter.calls };
}

async function roundTrip<T>(send: () => Promise<T>): Promise<T> {
  const counter = perRequest.getStore();
  if (counter) counter.calls++;
  else delay.unattributed++;
  if (delay.ms > 0) await new Promise((done) => setTimeout(done, delay.ms));
  return send();
}

function wrapStatement(statement: D1PreparedStatement): D1PreparedStatement {
  const wrapped = new Proxy(statement, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== "function") return value;
      if (prop === "bind") return (...values: unknown[]) => wrapStatement(target.bind(...values));
      if (ROUND_TRIPS.has(prop))
        return (...args: unknown[]) => roundTrip(() => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
  realStatement.set(wrapped, statement);
  return wrapped;
}

const unwrap = (statements: D1PreparedStatement[]) => statements.map((s) => realStatement.get(s) ?? s);

/** The binding with every round trip delayed and counted; sessions (`withSession`) are wrapped the same way. */
export function delayedD1(db: D1Database): D1Database {
  return new Proxy(db, {
    get(target, prop) {
      if (prop === "prepare") return (query: string) => wrapStatement(target.prepare(query));
      if (prop === "batch") return (statements: D1PreparedStatement[]) => roundTrip(() => target.batch(unwrap(statements)));
      if (prop === "exec") return (query: string) => roundTrip(() => target.exec(query));
      if (prop === "withSession")
        return (constraint?: string) => {
          const session = target.withSession(constraint);
          return new Proxy(session, {
            get(s, p) {
              if (p === "prepare") return (query: string) => wrapStatement(s.prepare(query));
              if (p === "batch") return (statements: D1PreparedStatement[]) => roundTrip(() => s.batch(unwrap(statements)));
              const v = Reflect.get(s, p, s) as unknown;
              return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(s) : v;
            },
          });
        };
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
