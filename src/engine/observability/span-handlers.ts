/**
 * @module What each event type does to a run's spans: the table {@link RunSpanBuilder} folds
 * with. A type missing here becomes a span event (see `run-span-builder.ts`), so new event types
 * and step kinds fit without a change here; a new kind of wait gets a span by adding its pair here.
 */

import { SUBMIT_LWIR_TOOL } from "../../ports/planner-protocol.ts";
import { type Attributes, errorEnd, jsonAttribute, type OpenSpan } from "./open-spans.ts";
import { learnStepKinds, type SpanHandlers } from "./span-fold.ts";
import { STEP_HANDLERS } from "./step-span-handlers.ts";
import { parseTraceparent } from "./trace-context.ts";

const RUN: SpanHandlers = {
  RunRequested: (b, e) => {
    const parent = parseTraceparent(e.payload.traceparent);
    learnStepKinds(b.stepKinds, e.payload.lwir);
    b.adoptParent(parent);
    b.scope = { ...b.scope, "little.workflow_id": e.payload.workflowId, "little.tenant": e.payload.tenant };
    const root = b.open(e, `run ${e.payload.workflowId}`, { "little.trigger": e.payload.trigger.kind }, null, "server");
    b.root = parent ? { ...root, parentSpanId: parent.spanId, parentIsRemote: true } : root;
    return [];
  },
  WorkflowVersionRegistered: (b, e) => {
    const ids = { "little.version_id": e.payload.versionId, "little.definition_hash": e.payload.definitionHash };
    b.scope = { ...b.scope, ...ids };
    if (b.root) Object.assign(b.root.attributes, ids);
    for (const compile of b.compiles.values()) Object.assign(compile.attributes, ids);
    return [];
  },
  RunStarted: (b, e) => {
    const compile = b.take(b.compiles, e.payload.cycle);
    return compile ? [b.close(compile, { atMs: e.at, seq: e.seq, status: { code: "ok" } })] : [];
  },
  RunCompleted: (b, e) => {
    const usage = e.payload.usage;
    const attributes = {
      "little.status": "completed",
      "gen_ai.usage.input_tokens": usage.inputTokens,
      "gen_ai.usage.output_tokens": usage.outputTokens,
      ...(usage.costUsd !== null ? { "little.cost_usd": usage.costUsd } : {}),
    };
    return b.closeAll({ atMs: e.at, seq: e.seq }, { atMs: e.at, seq: e.seq, status: { code: "ok" }, attributes });
  },
  RunFailed: (b, e) => {
    const end = errorEnd(e.at, e.seq, e.payload.message, e.payload.causeCode);
    return b.closeAll({ atMs: e.at, seq: e.seq }, { ...end, attributes: { ...end.attributes, "little.status": "failed" } });
  },
  RunCancelled: (b, e) =>
    b.closeAll(
      { atMs: e.at, seq: e.seq },
      { atMs: e.at, seq: e.seq, attributes: { "little.status": "cancelled", "little.cancel_reason": e.payload.reason } },
    ),
};

const SESSIONS: SpanHandlers = {
  "harness.session.started": (b, e) => {
    const { sessionId, role, kind, stepPath, cycle } = e.payload;
    let parent: OpenSpan | null;
    if (role === "planner") {
      const c = cycle ?? 1;
      let compile = b.compiles.get(c);
      if (!compile) {
        compile = b.open(e, `compile cycle ${c}`, { "little.cycle": c }, undefined, "internal", "compile");
        b.compiles.set(c, compile);
      }
      parent = compile;
    } else parent = stepPath !== undefined ? (b.steps.get(stepPath) ?? b.parentOfStep(stepPath)) : b.root;
    const attributes = {
      "little.session_id": sessionId,
      "little.role": role,
      "little.task_kind": kind,
      ...(stepPath !== undefined ? { "little.step_path": stepPath } : {}),
      ...(cycle !== undefined ? { "little.cycle": cycle } : {}),
    };
    return b.reopen(b.sessions, sessionId, b.open(e, `${role} session`, attributes, parent, "internal"), e);
  },
  "harness.session.completed": (b, e) => {
    const open = b.take(b.sessions, e.payload.sessionId);
    return open ? [b.close(open, { atMs: e.at, seq: e.seq, status: { code: "ok" } })] : [];
  },
  "harness.session.failed": (b, e) => {
    const open = b.take(b.sessions, e.payload.sessionId);
    return open ? [b.close(open, errorEnd(e.at, e.seq, e.payload.message, e.payload.causeCode))] : [];
  },
};

const CALLS: SpanHandlers = {
  "harness.model.called": (b, e) => {
    const { sessionId, callId, turn, modelSlotId, providerId, modelId } = e.payload;
    const attributes = {
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": providerId,
      "gen_ai.request.model": modelId,
      "little.model_slot": modelSlotId,
      "little.call_id": callId,
      "little.turn": turn,
    };
    return b.reopen(b.calls, callId, b.open(e, `chat ${modelId}`, attributes, b.sessions.get(sessionId) ?? b.root, "client"), e);
  },
  "harness.model.responded": (b, e) => {
    const open = b.take(b.calls, e.payload.callId);
    if (!open) return [];
    const { usage, model, response } = e.payload;
    const attributes = {
      "gen_ai.response.model": model.modelId,
      "gen_ai.usage.input_tokens": usage.inputTokens,
      "gen_ai.usage.output_tokens": usage.outputTokens,
      "little.offline_model": model.offline,
      ...(usage.costUsd !== null ? { "little.cost_usd": usage.costUsd } : {}),
      ...(b.options.recordContent ? { "gen_ai.output.messages": jsonAttribute(response) } : {}),
    };
    return [b.close(open, { atMs: e.at, seq: e.seq, status: { code: "ok" }, attributes })];
  },
  "harness.model.failed": (b, e) => {
    const open = b.take(b.calls, e.payload.callId);
    const { error } = e.payload;
    const end = errorEnd(e.at, e.seq, error.message, error.code);
    return open ? [b.close(open, { ...end, attributes: { ...end.attributes, "error.type": error.code ?? error.name } })] : [];
  },
  "harness.tool_call.started": (b, e) => {
    const { sessionId, callId, tool, args } = e.payload;
    if (tool === SUBMIT_LWIR_TOOL && args !== null && typeof args === "object") b.drafts.set(callId, (args as { lwir?: unknown }).lwir);
    const attributes = {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": tool,
      "gen_ai.tool.call.id": callId,
      ...(b.options.recordContent ? { "gen_ai.tool.call.arguments": jsonAttribute(args) } : {}),
    };
    return b.reopen(b.calls, callId, b.open(e, `execute_tool ${tool}`, attributes, b.sessions.get(sessionId) ?? b.root), e);
  },
  "harness.tool_call.succeeded": (b, e) => {
    const open = b.take(b.calls, e.payload.callId);
    const draft = b.drafts.get(e.payload.callId);
    b.drafts.delete(e.payload.callId);
    if ((e.payload.result as { accepted?: unknown } | null)?.accepted === true) learnStepKinds(b.stepKinds, draft);
    const attributes: Attributes = b.options.recordContent ? { "gen_ai.tool.call.result": jsonAttribute(e.payload.result) } : {};
    return open ? [b.close(open, { atMs: e.at, seq: e.seq, status: { code: "ok" }, attributes })] : [];
  },
  "harness.tool_call.failed": (b, e) => {
    const open = b.take(b.calls, e.payload.callId);
    return open ? [b.close(open, errorEnd(e.at, e.seq, e.payload.error.message, e.payload.error.code))] : [];
  },
};

/** Every event type that shapes spans, and how. */
export const SPAN_HANDLERS: SpanHandlers = { ...RUN, ...SESSIONS, ...CALLS, ...STEP_HANDLERS };
