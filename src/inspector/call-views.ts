import type { ModelCallView, RunView, SessionView, ToolCallView } from "./run-view-types.ts";
import type { Presenters } from "./step-nodes.ts";
import { stepFor } from "./step-nodes.ts";

/**
 * The harness events' presentation: sessions, model calls and tool calls with their times, filed
 * under the step whose worker or fixer session made them, or under the planner. The engine's fold
 * keeps none of this (replay reads calls through the harness journal), so it is the page's own.
 */

/** Where a session's calls go: the planner's list, or the step its stepPath names. */
type CallOwner = { modelCalls: ModelCallView[]; toolCalls: ToolCallView[] };

function findSession(view: RunView, sessionId: string): SessionView | undefined {
  const planner = view.planner.sessions.find((s) => s.sessionId === sessionId);
  if (planner) return planner;
  for (const step of Object.values(view.steps)) {
    const found = step.sessions.find((s) => s.sessionId === sessionId);
    if (found) return found;
  }
  return undefined;
}

/** Calls of a step's worker or fixer session go to that step; everything else to the planner. */
function ownerOf(view: RunView, sessionId: string): CallOwner {
  for (const step of Object.values(view.steps)) if (step.sessions.some((s) => s.sessionId === sessionId)) return step;
  return view.planner;
}

export const CALL_PRESENTERS: Presenters = {
  "harness.session.started": (view, { payload: p, at }) => {
    const session: SessionView = {
      sessionId: p.sessionId,
      role: p.role,
      stepPath: p.stepPath ?? null,
      startedAt: at,
      endedAt: null,
      status: "running",
      failure: null,
    };
    if (p.stepPath === undefined) view.planner.sessions.push(session);
    else stepFor(view, p.stepPath)?.sessions.push(session);
  },
  "harness.session.completed": (view, { payload, at }) => {
    const session = findSession(view, payload.sessionId);
    if (!session) return;
    session.endedAt = at;
    session.status = "succeeded";
  },
  "harness.session.failed": (view, { payload, at }) => {
    const session = findSession(view, payload.sessionId);
    if (!session) return;
    session.endedAt = at;
    session.status = "failed";
    session.failure = { causeCode: payload.causeCode, message: payload.message };
  },
  "harness.model.called": (view, { payload: p, at }) => {
    ownerOf(view, p.sessionId).modelCalls.push({
      callId: p.callId,
      sessionId: p.sessionId,
      turn: p.turn,
      modelSlotId: p.modelSlotId,
      providerId: p.providerId,
      modelId: p.modelId,
      startedAt: at,
      endedAt: null,
      status: "running",
      offline: null,
      usage: null,
      error: null,
    });
  },
  "harness.model.responded": (view, { payload, at }) => {
    const call = ownerOf(view, payload.sessionId).modelCalls.find((c) => c.callId === payload.callId);
    if (!call) return;
    call.endedAt = at;
    call.status = "succeeded";
    call.usage = payload.usage;
    call.offline = payload.model.offline;
  },
  "harness.model.failed": (view, { payload, at }) => {
    const call = ownerOf(view, payload.sessionId).modelCalls.find((c) => c.callId === payload.callId);
    if (!call) return;
    call.endedAt = at;
    call.status = "failed";
    call.error = payload.error;
  },
  "harness.tool_call.started": (view, { payload: p, at }) => {
    ownerOf(view, p.sessionId).toolCalls.push({
      callId: p.callId,
      sessionId: p.sessionId,
      tool: p.tool,
      args: p.args,
      startedAt: at,
      endedAt: null,
      status: "running",
      result: undefined,
      error: null,
    });
  },
  "harness.tool_call.succeeded": (view, { payload, at }) => {
    const call = ownerOf(view, payload.sessionId).toolCalls.find((c) => c.callId === payload.callId);
    if (!call) return;
    call.endedAt = at;
    call.status = "succeeded";
    call.result = payload.result;
  },
  "harness.tool_call.failed": (view, { payload, at }) => {
    const call = ownerOf(view, payload.sessionId).toolCalls.find((c) => c.callId === payload.callId);
    if (!call) return;
    call.endedAt = at;
    call.status = "failed";
    call.error = payload.error;
  },
};
