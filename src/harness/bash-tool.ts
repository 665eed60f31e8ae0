import { jsonSchema } from "ai";
import type { SandboxSession } from "../ports/sandbox.ts";
import type { HarnessTool } from "./durable-tools.ts";
import type { HarnessContext } from "./harness-context.ts";
import { execAndPersist } from "./session-memory.ts";

/**
 * The `bash` tool of planner and fixer sessions: runs a command in the session's sandbox (opened on
 * first use), saves what it changed in rw memory, and records the scratch files with the call.
 */
export function bashTool(description: string, openSandbox: () => Promise<SandboxSession>, ctx?: HarnessContext): HarnessTool {
  const redact = ctx?.redact ? (text: string) => String(ctx.redact?.value(text)) : undefined;
  return {
    description,
    inputSchema: jsonSchema({
      type: "object",
      properties: { command: { type: "string" } },
      required: ["command"],
      additionalProperties: false,
    }),
    execute: async (input) => execAndPersist(await openSandbox(), String((input as { command?: unknown }).command ?? ""), redact),
    captureScratch: async () => (await openSandbox()).snapshotScratch(),
  };
}
