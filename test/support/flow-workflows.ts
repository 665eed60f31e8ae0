import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { openai } from "@ai-sdk/openai";
import { z } from "zod";
import type { RegisteredWorkflow } from "../../src/engine/run-environment.ts";
import type { RunEvent } from "../../src/ports/run-events.ts";
import { defineWorkflow } from "../../src/sdk/define-workflow.ts";
import type { ConcurrencyInput, ThrottleLimit } from "../../src/sdk/flow-control.ts";
import { model } from "../../src/sdk/model.ts";
import { call, type Json } from "../api/support/api-call.ts";
import { runStub } from "./drive.ts";

/** A reply-drafting workflow with the flow control a test gives it (the offline model plans and answers it). */
export function flowWorkflow(id: string, flow: { concurrency?: ConcurrencyInput; throttle?: ThrottleLimit }): RegisteredWorkflow {
  return {
    definition: defineWorkflow({
      id,
      description: "Draft a reply to a customer's message.",
      input: z.object({ customerId: z.string(), message: z.string() }),
      output: z.object({ reply: z.string() }),
      models: [model(openai("gpt-4o-mini"), { description: "Drafts short replies." })],
      planner: { model: openai("gpt-5"), system: "Plan one drafting step." },
      ...flow,
    }),
    tools: {},
  };
}

/** Starts a run over HTTP (the start service, the run object, the limiter): the answer's run. */
export async function startFlowRun(
  workflowId: string,
  customerId: string,
  options: { idempotencyKey?: string; token?: string } = {},
): Promise<Json & { runId: string; status: string; waitReason?: string; queue?: { key: string; position: number | null } }> {
  const r = await call("POST", `/v1/workflows/${workflowId}/runs`, {
    body: { input: { customerId, message: "Where is my order?" } },
    ...(options.token ? { token: options.token } : {}),
    ...(options.idempotencyKey ? { headers: { "idempotency-key": options.idempotencyKey } } : {}),
  });
  if (r.status !== 202 && r.status !== 200) throw new Error(`start: ${r.status} ${r.text}`);
  return r.json.run as never;
}

/** The tenant `LITTLE_DEV_TOKEN` (the API calls' default token) authenticates as. */
export const DEV_TENANT = "dev";

/** Every event of a dev-tenant run, from its object. */
export function eventsOf(runId: string): Promise<RunEvent[]> {
  return runStub(runId, DEV_TENANT).events({ limit: 1_000 });
}

/** Waits (over RPC, no sleeping) until every run has ended; the limiter wakes queued runs itself. */
export async function waitForAll(runIds: readonly string[], timeoutMs = 60_000): Promise<string[]> {
  return Promise.all(runIds.map(async (id) => (await runStub(id, DEV_TENANT).waitForEnd(timeoutMs)).status));
}

/** [RunStarted, end] of a run, from its events' timestamps. */
export function runningInterval(events: readonly RunEvent[]): { start: number; end: number } | null {
  const start = events.find((e) => e.type === "RunStarted")?.at;
  const end = events.find((e) => e.type === "RunCompleted" || e.type === "RunFailed" || e.type === "RunCancelled")?.at;
  return start === undefined || end === undefined ? null : { start, end };
}

/** The most intervals open at any one instant (an interval ending at t does not overlap one starting at t). */
export function maxOverlap(intervals: readonly { start: number; end: number }[]): number {
  const points = intervals.flatMap((i) => [
    { at: i.start, d: 1 },
    { at: i.end, d: -1 },
  ]);
  points.sort((a, b) => a.at - b.at || a.d - b.d);
  let open = 0;
  let max = 0;
  for (const p of points) {
    open += p.d;
    max = Math.max(max, open);
  }
  return max;
}

/** The limiter object of one key, for `runInDurableObject` and its alarm. */
export function limiterStub(tenant: string, workflowId: string, kind: "concurrency" | "throttle", index: number, key: string) {
  return env.FLOW.get(env.FLOW.idFromName(JSON.stringify(["limiter", tenant, workflowId, kind, index, key])));
}

/** Runs a limiter's alarm (lease checks, throttle windows) now. */
export function runLimiterAlarm(stub: ReturnType<typeof limiterStub>): Promise<boolean> {
  return runDurableObjectAlarm(stub);
}

/** When the run's (first) gate admitted it, on the limiter's clock (its FlowAdmitted follows once it is woken). */
export function admittedAtOf(events: readonly RunEvent[]): number {
  const admitted = events.find((e) => e.type === "FlowAdmitted");
  if (admitted?.type !== "FlowAdmitted") throw new Error(`run ${events[0]?.runId} was never admitted`);
  return admitted.payload.admittedAt;
}
