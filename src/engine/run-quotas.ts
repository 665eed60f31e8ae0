import { canonicalJson } from "../json/canonical-json.ts";
import type { EventLog } from "../ports/event-log.ts";
import type { RunEvent } from "../ports/run-events.ts";
import { RunFailure } from "./run-failure.ts";

/** Per-run limits (Worker vars `LITTLE_QUOTA_*`; see {@link runQuotasFromVars}). */
export type RunQuotas = {
  /** Canonical LWIR bytes a run may register (a version row must fit D1's 2 MB row limit). */
  readonly lwirBytes: number;
  /** Model tokens (input + output, every session and step) a run may spend. */
  readonly modelTokens: number;
  /** Bytes of event payloads a run's log may hold (the run object reads its log whole). */
  readonly eventLogBytes: number;
};

/**
 * Defaults: far above what the shipped workflows use, below what breaks the platform: 1 MiB of
 * LWIR (D1 rows stop at 2 MB), 2M tokens, 32 MiB of log (the run object loads its log into a
 * 128 MB isolate).
 */
export const DEFAULT_RUN_QUOTAS: RunQuotas = { lwirBytes: 1024 * 1024, modelTokens: 2_000_000, eventLogBytes: 32 * 1024 * 1024 };

/** The run quotas from Worker vars; a var that is not a positive whole number keeps its default. */
export function runQuotasFromVars(vars: Readonly<Record<string, unknown>>): RunQuotas {
  return {
    lwirBytes: positive(vars.LITTLE_QUOTA_LWIR_BYTES) ?? DEFAULT_RUN_QUOTAS.lwirBytes,
    modelTokens: positive(vars.LITTLE_QUOTA_TOKENS_PER_RUN) ?? DEFAULT_RUN_QUOTAS.modelTokens,
    eventLogBytes: positive(vars.LITTLE_QUOTA_EVENT_LOG_BYTES) ?? DEFAULT_RUN_QUOTAS.eventLogBytes,
  };
}

/** A positive whole number from a var, else undefined: a typo must not turn a quota off. */
export function positive(value: unknown): number | undefined {
  if (typeof value !== "string" || !/^\d+$/.test(value.trim())) return undefined;
  const n = Number(value.trim());
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** UTF-8 bytes of a document's canonical JSON: what a version row stores. */
export function canonicalBytes(value: unknown): number {
  return new TextEncoder().encode(canonicalJson(value)).length;
}

/** Refuses an LWIR (its canonical JSON text) over the run's limit, before it is registered (`lwir_too_large`). */
export function assertLwirFits(canonicalText: string, quotas: RunQuotas): void {
  const bytes = new TextEncoder().encode(canonicalText).length;
  if (bytes > quotas.lwirBytes)
    throw new RunFailure(
      "lwir_too_large",
      `The LWIR is ${bytes} bytes of canonical JSON; this Worker's limit is ${quotas.lwirBytes} (LITTLE_QUOTA_LWIR_BYTES)`,
    );
}

/**
 * Counts a run's model tokens and log bytes as its events are appended, from the whole log at the
 * start of each slice. When one goes over, the event that did it is kept (the log stays true), the
 * slice's signal is aborted so calls in flight stop, and {@link exceeded} holds the failure the
 * drive loop ends the run with (`model_tokens_exceeded` or `event_log_too_large`). A run that
 * resumes already over fails at once, before any call.
 *
 * Bytes are UTF-16 code units of each payload's JSON text: a cheap bound that is exact for ASCII
 * and under-counts other text by at most 3x; the limit is a guard, not a bill.
 */
export class RunQuotaMeter {
  private tokens = 0;
  private bytes = 0;
  private failure: RunFailure | null = null;
  private readonly controller = new AbortController();
  private readonly quotas: RunQuotas;

  constructor(quotas: RunQuotas, events: readonly RunEvent[]) {
    this.quotas = quotas;
    this.count(events);
  }

  /** Aborted when a quota is exceeded. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The failure to end the run with, once a quota is exceeded. */
  get exceeded(): RunFailure | null {
    return this.failure;
  }

  /** The log, counting what is appended to it. */
  meter(log: EventLog): EventLog {
    return {
      runId: log.runId,
      append: async (events) => {
        const written = await log.append(events);
        this.count(written);
        return written;
      },
      all: () => log.all(),
      page: (options) => log.page(options),
      checkpoint: () => log.checkpoint(),
    };
  }

  private count(events: readonly RunEvent[]): void {
    for (const event of events) {
      this.bytes += JSON.stringify(event.payload ?? null).length;
      if (event.type === "harness.model.responded") this.tokens += event.payload.usage?.totalTokens ?? 0;
    }
    if (this.failure) return;
    if (this.tokens > this.quotas.modelTokens)
      this.failure = new RunFailure(
        "model_tokens_exceeded",
        `The run used ${this.tokens} model tokens; this Worker's limit is ${this.quotas.modelTokens} per run (LITTLE_QUOTA_TOKENS_PER_RUN)`,
      );
    else if (this.bytes > this.quotas.eventLogBytes)
      this.failure = new RunFailure(
        "event_log_too_large",
        `The run's event log holds ${this.bytes} bytes; this Worker's limit is ${this.quotas.eventLogBytes} per run (LITTLE_QUOTA_EVENT_LOG_BYTES)`,
      );
    if (this.failure) this.controller.abort(this.failure);
  }
}
