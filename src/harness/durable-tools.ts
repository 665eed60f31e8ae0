import { type FlexibleSchema, type Tool, tool } from "ai";
import { decodeTagged, encodeTagged } from "../identity/tagged-json.ts";
import type { ScratchFiles } from "../ports/sandbox.ts";
import { appendEvents, assertSliceTime, type HarnessContext, type SessionCursor } from "./harness-context.ts";
import { assertNotPaused } from "./pause-yield.ts";

/** A tool as the harness offers it to a model, before journaling. */
export type HarnessTool = {
  readonly description: string;
  readonly inputSchema: FlexibleSchema<unknown>;
  /** `idempotencyKey` is `<runId>:<callId>`: equal on a re-issued in-flight call. */
  /** `turn` is the session's model call (1-based) that asked for this tool call. */
  readonly execute: (input: unknown, meta: { idempotencyKey: string; callId: string; turn: number }) => Promise<unknown>;
  /** Called after a successful call; the files are recorded with it so a resume can restore them. */
  readonly captureScratch?: () => Promise<ScratchFiles>;
};

/**
 * Wraps tools so each call is journaled: `harness.tool_call.started` before it runs,
 * `succeeded` or `failed` after. On replay a finished call returns its recorded result (or throws
 * its recorded error) without running; only the in-flight call runs again, with the same
 * idempotency key.
 */
export function durableTools(
  tools: Readonly<Record<string, HarnessTool>>,
  ctx: HarnessContext,
  cursor: SessionCursor,
): Record<string, Tool> {
  const wrapped: Record<string, Tool> = {};
  for (const [name, spec] of Object.entries(tools)) {
    wrapped[name] = tool({
      description: spec.description,
      inputSchema: spec.inputSchema,
      execute: async (input: unknown, options: { toolCallId?: string }) => {
        // A write that fails is not the tool's failure: it ends the session (see SessionCursor.fatal).
        const durably = async (events: Parameters<typeof appendEvents>[1]) => {
          try {
            await appendEvents(ctx, events);
          } catch (error) {
            cursor.fatal ??= { error };
            throw error;
          }
        };
        const callId = cursor.toolCallId(options.toolCallId);
        const idempotencyKey = `${ctx.runId}:${callId}`;
        const record = ctx.journal.toolCall(callId);
        if (record?.succeeded) return decodeTagged(record.succeeded.result);
        if (record?.failed) throw new Error(record.failed.error.message);
        if (!record?.started) {
          assertNotPaused(ctx);
          assertSliceTime(ctx);
          await durably([
            {
              type: "harness.tool_call.started",
              payload: { sessionId: cursor.sessionId, callId, caller: "model", tool: name, args: encodeTagged(input), idempotencyKey },
            },
          ]);
        }
        let result: unknown;
        try {
          result = await spec.execute(input, { idempotencyKey, callId, turn: cursor.turn });
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          await durably([
            {
              type: "harness.tool_call.failed",
              payload: {
                sessionId: cursor.sessionId,
                callId,
                tool: name,
                error: { name: error instanceof Error ? error.name : "Error", message, retriable: false },
              },
            },
          ]);
          throw error;
        }
        const scratch = spec.captureScratch ? await spec.captureScratch() : undefined;
        const encoded = encodeTagged(result);
        await durably([
          {
            type: "harness.tool_call.succeeded",
            payload: { sessionId: cursor.sessionId, callId, tool: name, result: encoded, ...(scratch ? { scratch: { ...scratch } } : {}) },
          },
        ]);
        return decodeTagged(encoded);
      },
    });
  }
  return wrapped;
}
