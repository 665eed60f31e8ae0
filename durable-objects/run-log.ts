/**
 * @module A run object's event log, opened once per instance: appends go to the live subscribers
 * (SSE) and to the run's telemetry (log lines, spans; run-telemetry.ts), whose export cursor is
 * kept in the `meta` table.
 */
import type { RunEvent } from "../src/ports/run-events.ts";
import { type RunObjectLog, runObjectLog, wire } from "../src/wiring.ts";
import type { RunMeta } from "./run-meta.ts";
import { RunTelemetry } from "./run-telemetry.ts";

export function openRunLog(
  ctx: DurableObjectState,
  env: Env,
  meta: RunMeta,
  runId: string,
  subscribers: ReadonlySet<(events: readonly RunEvent[]) => void>,
): RunObjectLog {
  const log = runObjectLog(ctx, runId, wire(env).clock, (events) => {
    for (const subscriber of [...subscribers]) subscriber(events);
    telemetry.afterAppend(events);
  });
  const cursor = {
    read: () => Number(meta.get("otlpCursor") ?? "0"),
    write: (seq: number) => meta.set("otlpCursor", String(seq)),
  };
  const telemetry = new RunTelemetry(ctx, env, runId, log, cursor);
  return log;
}
