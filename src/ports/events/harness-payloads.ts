import { z } from "zod";
import { RunCauseCodeSchema } from "./cause-codes.ts";
import { DigestSchema, HarnessRoleSchema, HarnessTaskKindSchema, RecordedErrorSchema, TokenUsageSchema } from "./common-schemas.ts";

/** Payloads of the harness's journal (`harness.*`): sessions, model calls and tool calls, replayed on resume. */
export const HARNESS_PAYLOADS = {
  "harness.session.started": z.object({
    sessionId: z.string(),
    role: HarnessRoleSchema,
    kind: HarnessTaskKindSchema,
    manifestHash: DigestSchema,
    manifest: z.unknown(),
    stepPath: z.string().optional(),
    cycle: z.number().optional(),
  }),
  "harness.session.completed": z.object({
    sessionId: z.string(),
    role: HarnessRoleSchema,
    output: z.unknown(),
    fixedSource: z.string().optional(),
  }),
  "harness.session.failed": z.object({
    sessionId: z.string(),
    role: HarnessRoleSchema,
    causeCode: RunCauseCodeSchema,
    message: z.string(),
  }),
  "harness.model.called": z.object({
    sessionId: z.string(),
    callId: z.string(),
    turn: z.number(),
    requestHash: DigestSchema,
    modelSlotId: z.string(),
    providerId: z.string(),
    modelId: z.string(),
  }),
  "harness.model.responded": z.object({
    sessionId: z.string(),
    callId: z.string(),
    response: z.unknown(),
    usage: TokenUsageSchema,
    model: z.object({ providerId: z.string(), modelId: z.string(), offline: z.boolean() }),
  }),
  "harness.model.failed": z.object({ sessionId: z.string(), callId: z.string(), error: RecordedErrorSchema }),
  "harness.tool_call.started": z.object({
    sessionId: z.string(),
    callId: z.string(),
    caller: z.literal("model"),
    tool: z.string(),
    args: z.unknown(),
    idempotencyKey: z.string(),
  }),
  "harness.tool_call.succeeded": z.object({
    sessionId: z.string(),
    callId: z.string(),
    tool: z.string(),
    result: z.unknown(),
    scratch: z.record(z.string(), z.string()).optional(),
  }),
  "harness.tool_call.failed": z.object({ sessionId: z.string(), callId: z.string(), tool: z.string(), error: RecordedErrorSchema }),
};
