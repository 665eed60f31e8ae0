/**
 * @module A run object's telemetry (docs/observability.md): after each append, one JSON log line
 * per run transition and, when `LITTLE_OTLP_ENDPOINT` is set, the spans the append ended, sent
 * from `waitUntil` so the run never waits on them. With no endpoint no tracer is built at all.
 */
import { RunLogLines } from "../src/engine/observability/run-log-lines.ts";
import { type ExportCursor, RunTracer } from "../src/engine/observability/run-tracer.ts";
import type { EventLog } from "../src/ports/event-log.ts";
import type { RunEvent } from "../src/ports/run-events.ts";
import { wire } from "../src/wiring.ts";

export class RunTelemetry {
  /** null when `LITTLE_RUN_LOGS` is `off` (the test suite sets it: thousands of runs). */
  private readonly lines: RunLogLines | null;
  private readonly tracer: RunTracer | null;
  private logging: Promise<void> = Promise.resolve();
  private readonly ctx: DurableObjectState;
  private readonly log: EventLog;

  constructor(ctx: DurableObjectState, env: Env, runId: string, log: EventLog, cursor: ExportCursor) {
    this.ctx = ctx;
    this.log = log;
    this.lines = (env as unknown as Record<string, unknown>).LITTLE_RUN_LOGS === "off" ? null : new RunLogLines(runId);
    const wiring = wire(env);
    this.tracer = wiring.spans
      ? new RunTracer({
          runId,
          log,
          exporter: wiring.spans,
          cursor,
          options: async () => {
            const [first] = await log.page({ after: 0, limit: 1 });
            const workflowId = first?.type === "RunRequested" ? first.payload.workflowId : undefined;
            const telemetry = workflowId ? wiring.workflows.get(workflowId)?.definition.telemetry : undefined;
            return { recordContent: telemetry?.recordContent === true };
          },
        })
      : null;
  }

  /** Spans this object dropped and exported (for tests and the bench). */
  get counts(): { dropped: number; exported: number } {
    return { dropped: this.tracer?.dropped ?? 0, exported: this.tracer?.exported ?? 0 };
  }

  /** After an append: its log lines (in order) and an export pass, neither awaited by the run. */
  afterAppend(events: readonly RunEvent[]): void {
    if (this.lines) {
      const lines = this.lines;
      this.logging = this.logging.then(() => this.writeLines(lines, events)).catch(() => {});
      this.ctx.waitUntil(this.logging);
    }
    if (this.tracer) this.ctx.waitUntil(this.tracer.schedule());
  }

  /** Waits for the export passes in flight (tests and the bench). */
  async settled(): Promise<void> {
    await this.logging;
    await this.tracer?.schedule();
  }

  private async writeLines(lines: RunLogLines, events: readonly RunEvent[]): Promise<void> {
    if (!lines.seeded && (events[0]?.seq ?? 1) > 1) {
      lines.seed(await this.log.page({ after: 0, limit: 1 }));
      lines.seed(await this.log.page({ after: 0, limit: 1_000, types: ["WorkflowVersionRegistered"] }));
    }
    for (const line of lines.linesOf(events)) console.log(JSON.stringify({ level: "info", ...line }));
  }
}
