import type { RunEvent, RunEventPayloads } from "../ports/run-events.ts";

type P<K extends keyof RunEventPayloads> = RunEventPayloads[K];

/** Everything the log says about one model call. */
export type ModelCallRecord = {
  called?: P<"harness.model.called">;
  responded?: P<"harness.model.responded">;
  failures: P<"harness.model.failed">[];
};

/** Everything the log says about one tool call. */
export type ToolCallRecord = {
  started?: P<"harness.tool_call.started">;
  succeeded?: P<"harness.tool_call.succeeded">;
  failed?: P<"harness.tool_call.failed">;
};

export type SessionRecord = {
  started?: P<"harness.session.started">;
  completed?: P<"harness.session.completed">;
  failed?: P<"harness.session.failed">;
  /** The scratch files as of the session's last completed bash call. */
  scratch?: Record<string, string>;
};

/**
 * An index over a run's events for replay: by call id for model and tool calls, by session id for
 * sessions. Replay reads it; the durable wrappers add to it as they append, so one journal serves
 * a whole drive slice.
 */
export class Journal {
  private readonly models = new Map<string, ModelCallRecord>();
  private readonly tools = new Map<string, ToolCallRecord>();
  private readonly sessions = new Map<string, SessionRecord>();
  private readonly toolOrder = new Map<string, string[]>();

  constructor(events: readonly RunEvent[] = []) {
    for (const event of events) this.record(event);
  }

  /** Adds an appended event to the index. */
  record(event: RunEvent): void {
    switch (event.type) {
      case "harness.model.called":
        this.model(event.payload.callId).called = event.payload;
        break;
      case "harness.model.responded":
        this.model(event.payload.callId).responded = event.payload;
        break;
      case "harness.model.failed":
        this.model(event.payload.callId).failures.push(event.payload);
        break;
      case "harness.tool_call.started": {
        this.tool(event.payload.callId).started = event.payload;
        const order = this.toolOrder.get(event.payload.sessionId) ?? [];
        order.push(event.payload.callId);
        this.toolOrder.set(event.payload.sessionId, order);
        break;
      }
      case "harness.tool_call.succeeded": {
        this.tool(event.payload.callId).succeeded = event.payload;
        const scratch = event.payload.scratch;
        if (scratch) this.session(event.payload.sessionId).scratch = scratch;
        break;
      }
      case "harness.tool_call.failed":
        this.tool(event.payload.callId).failed = event.payload;
        break;
      case "harness.session.started":
        this.session(event.payload.sessionId).started = event.payload;
        break;
      case "harness.session.completed":
        this.session(event.payload.sessionId).completed = event.payload;
        break;
      case "harness.session.failed":
        this.session(event.payload.sessionId).failed = event.payload;
        break;
      default:
        break;
    }
  }

  modelCall(callId: string): ModelCallRecord | undefined {
    return this.models.get(callId);
  }
  toolCall(callId: string): ToolCallRecord | undefined {
    return this.tools.get(callId);
  }
  /** A session's finished tool calls of one tool, in the order they started. */
  finishedToolCalls(sessionId: string, tool: string): ToolCallRecord[] {
    return (this.toolOrder.get(sessionId) ?? [])
      .map((id) => this.tools.get(id) as ToolCallRecord)
      .filter((r) => r.started?.tool === tool && (r.succeeded || r.failed));
  }

  sessionRecord(sessionId: string): SessionRecord | undefined {
    return this.sessions.get(sessionId);
  }

  private model(callId: string): ModelCallRecord {
    const found = this.models.get(callId);
    if (found) return found;
    const created: ModelCallRecord = { failures: [] };
    this.models.set(callId, created);
    return created;
  }
  private tool(callId: string): ToolCallRecord {
    const found = this.tools.get(callId);
    if (found) return found;
    const created: ToolCallRecord = {};
    this.tools.set(callId, created);
    return created;
  }
  private session(sessionId: string): SessionRecord {
    const found = this.sessions.get(sessionId);
    if (found) return found;
    const created: SessionRecord = {};
    this.sessions.set(sessionId, created);
    return created;
  }
}
