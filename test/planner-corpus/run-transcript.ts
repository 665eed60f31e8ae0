import { runDurableObjectAlarm } from "cloudflare:test";
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import type { RunEvent } from "../../src/ports/run-events.ts";
import type { RunView } from "../../src/ports/run-handle.ts";
import type { Finding } from "../../src/sdk/finding.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { rawRunStub, runStub } from "../support/drive.ts";
import { replayingPlanner, type Turn, transcriptResolver } from "./replay-model.ts";

export type ToolCallRecord = { tool: string; input: unknown; result: unknown };

export type TranscriptRun = {
  readonly runId: string;
  readonly view: RunView;
  readonly events: RunEvent[];
  /** The planner's tool calls with their results, in order, from the run's event log. */
  readonly calls: ToolCallRecord[];
  readonly submissions: { accepted: boolean; findings: Finding[]; remainingRevisions: number }[];
  readonly plannerCalls: number;
  /** What the model was sent on its first call: system prompt, user prompt and the submit_lwir tool. */
  readonly firstRequest: { system: string; user: string; submitLwir: { description?: string; inputSchema: unknown } | undefined };
};

function isReset(error: unknown): boolean {
  return /reset|abort/i.test(String((error as Error)?.message)) || (error as { durableObjectReset?: boolean })?.durableObjectReset === true;
}

/** Runs the run object's alarms (never sleeping) until `done` holds for its log, or the run settles. */
export async function driveUntil(runId: string, done: (events: RunEvent[], view: RunView) => boolean, maxAlarms = 40): Promise<RunView> {
  for (let i = 0; i < maxAlarms; i++) {
    let ran = false;
    try {
      ran = await runDurableObjectAlarm(rawRunStub(runId));
    } catch (error) {
      if (!isReset(error)) throw error;
      continue;
    }
    const view = await runStub(runId).status();
    if (done(await runStub(runId).events({ limit: 10_000 }), view)) return view;
    if (!ran) return view;
  }
  throw new Error(`run ${runId} did not get there within ${maxAlarms} alarms`);
}

function firstRequestOf(call: LanguageModelV4CallOptions | undefined): TranscriptRun["firstRequest"] {
  const text = (role: string) =>
    (call?.prompt ?? [])
      .filter((m) => m.role === role)
      .map((m) => (typeof m.content === "string" ? m.content : m.content.map((p) => (p.type === "text" ? p.text : "")).join("")))
      .join("\n");
  const submit = call?.tools?.find((t) => t.name === "submit_lwir") as { description?: string; inputSchema: unknown } | undefined;
  return { system: text("system"), user: text("user"), submitLwir: submit };
}

/** The planner's tool calls from the log: started (input) joined with succeeded (result). */
export function plannerToolCalls(events: readonly RunEvent[]): ToolCallRecord[] {
  const started = new Map<string, { tool: string; input: unknown }>();
  const out: ToolCallRecord[] = [];
  for (const e of events) {
    const p = e.payload as { sessionId?: string; callId?: string; tool?: string; args?: unknown; result?: unknown };
    if (p.sessionId !== undefined && !String(p.sessionId).startsWith("planner")) continue;
    if (e.type === "harness.tool_call.started") started.set(String(p.callId), { tool: String(p.tool), input: p.args });
    if (e.type === "harness.tool_call.succeeded") {
      const s = started.get(String(p.callId));
      out.push({ tool: String(p.tool ?? s?.tool), input: s?.input, result: p.result });
    }
  }
  return out;
}

/**
 * Starts a run of a shipped workflow whose planner plays `turns`, and drives it until `until`
 * holds (default: the planner session is over and the version registered, or the run settled).
 */
export async function runTranscript(
  workflowId: string,
  input: unknown,
  turns: readonly Turn[],
  until: (events: RunEvent[], view: RunView) => boolean = (events) => events.some((e) => e.type === "RunStarted" || e.type === "RunFailed"),
): Promise<TranscriptRun> {
  const planner = replayingPlanner(turns);
  overrideWiring({ models: transcriptResolver(planner) });
  const runId = `corpus_${crypto.randomUUID().slice(0, 12)}`;
  await runStub(runId).start({ runId, workflowId, input, trigger: { kind: "http" } });
  const view = await driveUntil(runId, until);
  const events = await runStub(runId).events({ limit: 10_000 });
  const calls = plannerToolCalls(events);
  return {
    runId,
    view,
    events,
    calls,
    submissions: calls.filter((c) => c.tool === "submit_lwir").map((c) => c.result as TranscriptRun["submissions"][number]),
    plannerCalls: planner.doGenerateCalls.length,
    firstRequest: firstRequestOf(planner.doGenerateCalls[0]),
  };
}
