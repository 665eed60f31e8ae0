/**
 * The worker session the harness tests drive: one `execute_step` session `s1` whose output is the
 * loop's text. Tests vary the model, the slot, the prompt, the tools and the stop rule.
 */
import { jsonSchema } from "ai";
import type { SessionSpec } from "../../../src/harness/run-session.ts";
import { digestJson } from "../../../src/json/digest.ts";

const MANIFEST = { role: "worker" };

/** A session spec over `model`, with no tools and one model step unless `extra` says otherwise. */
export function workerSessionSpec(model: SessionSpec["model"], extra: Partial<SessionSpec> = {}): SessionSpec {
  return {
    sessionId: "s1",
    role: "worker",
    kind: "execute_step",
    manifest: MANIFEST,
    manifestHash: digestJson(MANIFEST),
    model,
    slot: { id: "m", providerId: "openai.responses", modelId: "m", offline: false },
    system: "Be brief.",
    prompt: "Say hello.",
    tools: {},
    stopWhen: ({ steps }) => steps.length >= 1,
    interpret: (loop) => ({ ok: true, output: loop.text }),
    ...extra,
  };
}

/** An `echo` tool taking `{ say }`, recording each input it runs with, answering `answer(input)`. */
export function echoTool(executed: unknown[], answer: (input: { say: string }) => unknown = (input) => input, required = false) {
  return {
    description: "Echoes its input.",
    inputSchema: jsonSchema({ type: "object", properties: { say: { type: "string" } }, ...(required ? { required: ["say"] } : {}) }),
    execute: async (input: unknown) => {
      executed.push(input);
      return answer(input as { say: string });
    },
  };
}
