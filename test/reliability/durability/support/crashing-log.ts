import { MemoryEventLog } from "../../../../src/adapters/memory/memory-event-log.ts";
import { RUN_STATE_FOLD } from "../../../../src/engine/run-state.ts";
import type { Clock } from "../../../../src/ports/clock.ts";
import type { EventLog } from "../../../../src/ports/event-log.ts";
import type { NewRunEvent, RunEvent } from "../../../../src/ports/run-events.ts";

/** The process died: thrown by every append of a crashed incarnation. */
export class SimulatedCrash extends Error {
  constructor(append: number, when: "before" | "after") {
    super(`simulated crash at append ${append} (${when} the write)`);
    this.name = "SimulatedCrash";
  }
}

/** Where to crash: the n-th append overall, before its write (lost) or after it (durable). */
export type CrashPoint = { readonly append: number; readonly when: "before" | "after" };

/**
 * A run's durable log plus crash injection. Each drive slice gets an {@link incarnation}: a view
 * of the log that, at a crash point, dies — that append and every later one from it throw
 * {@link SimulatedCrash} and `onCrash` aborts the slice's calls, as a killed process would stop
 * them. The next incarnation replays from what was durable.
 */
export class CrashingLog {
  readonly base: MemoryEventLog;
  appends = 0;
  crashes = 0;
  /** The event types of each durable append, in order (the engine may write several in one batch). */
  readonly batches: string[][] = [];
  private readonly points: Map<number, "before" | "after">;
  /** Runs synchronously after each durable append (API calls arriving mid-slice). */
  onAppended: ((n: number) => void) | null = null;

  constructor(runId: string, clock: Clock, points: readonly CrashPoint[]) {
    // Checkpointed every few events, so every crash point also lands between, on and after checkpoints.
    this.base = new MemoryEventLog(runId, clock, { ...RUN_STATE_FOLD, every: 3 });
    this.points = new Map(points.map((p) => [p.append, p.when]));
  }

  incarnation(onCrash: () => void): EventLog {
    let dead = false;
    const die = (n: number, when: "before" | "after") => {
      dead = true;
      this.crashes += 1;
      onCrash();
      return new SimulatedCrash(n, when);
    };
    return {
      runId: this.base.runId,
      append: async (events: readonly NewRunEvent[]): Promise<RunEvent[]> => {
        if (dead) throw new SimulatedCrash(this.appends, "after");
        const n = ++this.appends;
        const when = this.points.get(n);
        if (when === "before") throw die(n, when);
        const written = await this.base.append(events);
        this.batches.push(written.map((e) => e.type));
        if (when === "after") throw die(n, when);
        this.onAppended?.(n);
        return written;
      },
      all: () => this.base.all(),
      page: (options) => this.base.page(options),
      checkpoint: () => this.base.checkpoint(),
    };
  }
}

/** The 1-based append number of the last durable batch holding an event of `type`, or 0. */
export function lastAppendWith(log: CrashingLog, type: string): number {
  for (let i = log.batches.length - 1; i >= 0; i--) if (log.batches[i]?.includes(type)) return i + 1;
  return 0;
}
