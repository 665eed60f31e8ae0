import type { Clock } from "../ports/clock.ts";
import type { EventLog } from "../ports/event-log.ts";
import type { LiveModelOutput } from "../ports/live-output.ts";
import type { NewRunEvent, RunEvent } from "../ports/run-events.ts";
import type { Journal } from "./journal.ts";
import type { Redactor } from "./redact-secrets.ts";

/**
 * Thrown before a live call when the drive slice's time is up. Not an error: the run object
 * re-arms its alarm and the next slice replays to this point and goes on.
 */
export class SliceYieldSignal extends Error {
  /** When the next slice should start (a retry's backoff); now when absent. */
  readonly wakeAt: number | undefined;
  /**
   * Only a message to the run wakes it (a child run's end, `RunHandle.childEnded`): no alarm is
   * set, so a waiting run costs nothing and nothing polls.
   */
  readonly untilMessage: boolean;
  constructor(wakeAt?: number, options: { untilMessage?: boolean } = {}) {
    super(
      options.untilMessage
        ? "waiting for a message to the run"
        : wakeAt
          ? `waiting until ${new Date(wakeAt).toISOString()}`
          : "drive slice deadline reached; yielding to the next alarm",
    );
    this.name = "SliceYieldSignal";
    this.wakeAt = wakeAt;
    this.untilMessage = options.untilMessage === true && wakeAt === undefined;
  }
}

/** What durable wrappers need for one drive slice of one run. */
export type HarnessContext = {
  readonly runId: string;
  readonly log: EventLog;
  readonly journal: Journal;
  readonly clock: Clock;
  /** Epoch ms after which no new live call starts in this slice. */
  readonly deadline: number;
  readonly sleep: (ms: number) => Promise<void>;
  /** Idle ms after which a model call counts as hung (default `DEFAULT_MODEL_TIMEOUT_MS`, durable-model.ts). */
  readonly modelTimeoutMs?: number;
  /** Aborted when the run is cancelled: in-flight model and tool calls stop. */
  readonly signal?: AbortSignal;
  /** Aborted when the run is paused: nothing new starts (pause-yield.ts); calls in flight go on. */
  readonly pause?: AbortSignal;
  /** Applied to every event before it is appended: no secret value enters the log. */
  readonly redact?: Redactor;
  /** The secret values this run's version is permitted (LWIR `permissions.secrets`), for its tools. */
  readonly secrets?: Readonly<Record<string, string>>;
  /** Where live calls report their partial text (the run object's SSE deltas); never journaled. */
  readonly liveOutput?: LiveModelOutput;
};

/** Appends events durably and indexes them in the journal. */
export async function appendEvents(ctx: HarnessContext, events: readonly NewRunEvent[]): Promise<RunEvent[]> {
  const appended = await ctx.log.append(ctx.redact ? ctx.redact(events) : events);
  for (const event of appended) ctx.journal.record(event);
  return appended;
}

/** Throws {@link SliceYieldSignal} when the slice is out of time (a paused run: `assertNotPaused`, pause-yield.ts). */
export function assertSliceTime(ctx: HarnessContext): void {
  if (ctx.clock.now() >= ctx.deadline) throw new SliceYieldSignal();
}

/** Per-session counters that give calls their deterministic ids. */
export class SessionCursor {
  readonly sessionId: string;
  private modelCalls = 0;
  private toolCallsInTurn = 0;
  currentModelCallId = "";
  private leading: NewRunEvent[] = [];
  /**
   * A failed durable write inside a tool call. The AI SDK turns anything a tool throws into a tool
   * error the model is shown; an infrastructure failure must end the session instead, so it is
   * kept here and rethrown by the next model call and by the loop (nothing more is appended).
   */
  fatal: { readonly error: unknown } | undefined;

  constructor(sessionId: string) {
    this.sessionId = sessionId;
  }

  /**
   * Holds events (the session's `harness.session.started`) back so they go out in the same batch
   * as the session's next append, which comes before its first side effect (the model call): one
   * sync instead of two, same order. The session's next append must {@link takeLeading} them.
   */
  holdLeading(events: readonly NewRunEvent[]): void {
    this.leading.push(...events);
  }

  /** The held events, to put first in the append being made now; none are held afterwards. */
  takeLeading(): NewRunEvent[] {
    const held = this.leading;
    this.leading = [];
    return held;
  }

  /** The model call (1-based) of the turn in progress; 0 before the first. */
  get turn(): number {
    return this.modelCalls;
  }

  /** The next model call's id: `<session>/model/<n>`, 1-based. */
  nextModelCall(): { callId: string; turn: number } {
    this.modelCalls += 1;
    this.toolCallsInTurn = 0;
    this.currentModelCallId = `${this.sessionId}/model/${this.modelCalls}`;
    return { callId: this.currentModelCallId, turn: this.modelCalls };
  }

  /**
   * A tool call's id. The provider's `toolCallId` comes from the recorded model response, so it
   * is stable on replay; when it is empty, fall back to the model call and the call's index.
   */
  toolCallId(providerToolCallId: string | undefined): string {
    this.toolCallsInTurn += 1;
    const key =
      providerToolCallId && providerToolCallId.length > 0 ? providerToolCallId : `${this.currentModelCallId}#${this.toolCallsInTurn}`;
    return `${this.sessionId}/tool/${key}`;
  }
}
