/**
 * Helpers for the live-provider e2e tests: scripted planner and worker turns for a shipped example
 * workflow, event readers, and a deep replay of a finished run in Node against the same fake
 * provider (any model call the replay made would reach it).
 */
import { expect } from "vitest";
import { EnvModelResolver } from "../../../src/adapters/models/env-model-resolver.ts";
import { modelOverridesFromEnv } from "../../../src/adapters/models/model-overrides-from-env.ts";
import { offlinePlan } from "../../../src/adapters/models/offline-plan.ts";
import type { RegisteredWorkflow } from "../../../src/engine/run-environment.ts";
import { extractPlanTask, type PlanTask } from "../../../src/harness/planner-prompt.ts";
import type { RunEvent as EngineEvent } from "../../../src/ports/run-events.ts";
import type { ScenarioRun } from "../../histories/scenarios.ts";
import { replayDeep } from "../../reliability/durability/support/replay-history.ts";
import type { RunEvent } from "./api.ts";
import type { FakeRequest, FakeTurn } from "./fake-provider.ts";

/** Every text the request carries (system, user, tool results), in order. */
export function requestText(request: FakeRequest): string {
  const texts: string[] = [];
  const walk = (value: unknown, key?: string) => {
    if (typeof value === "string") {
      if (key === "text" || key === "content" || key === "instructions" || key === "system") texts.push(value);
      return;
    }
    if (Array.isArray(value)) for (const item of value) walk(item, key === "system" ? "system" : undefined);
    else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) walk(v, k);
  };
  walk(request.body);
  return texts.join("\n");
}

/** The plan task the planner was given (the `<plan-task>` block of its prompt). */
export function planTaskOf(request: FakeRequest): PlanTask {
  const task = extractPlanTask(requestText(request));
  if (!task) throw new Error(`no <plan-task> in the planner request: ${requestText(request).slice(0, 400)}`);
  return task;
}

/** Planner turn: a look at the task in bash. */
export const bashTurn: FakeTurn = {
  kind: "answer",
  text: "Let me look at the task first.",
  toolCalls: [{ name: "bash", arguments: { command: "ls /mnt/task && head -c 300 /mnt/task/plan-task.json" } }],
  usage: { input: 900, output: 40 },
};

/**
 * Planner turn: submit a valid LWIR for the task in the request (the shape the offline planner
 * drafts), its one ai.generate step on the `gpt-4o-mini` slot.
 */
export const submitTurn = (request: FakeRequest): FakeTurn => {
  const lwir = offlinePlan(planTaskOf(request)) as { permissions: { models: string[] }; steps: { with: { model: string } }[] };
  lwir.permissions.models = [WORKER_SLOT];
  for (const step of lwir.steps) step.with.model = WORKER_SLOT;
  return { kind: "answer", toolCalls: [{ name: "submit_lwir", arguments: { lwir } }], usage: { input: 1_400, output: 260 } };
};

/** The worker slot the submitted LWIR uses. */
export const WORKER_SLOT = "gpt-4o-mini";

export const ofType = (events: readonly RunEvent[], type: string) => events.filter((e) => e.type === type);

/**
 * Replays a finished run in Node, deep (only the call records given; sessions, registration,
 * steps and the ending re-derived), with the deployment's real model resolver and overrides. The
 * resolved providers point at the fake server, so a model call would show there.
 */
export async function replayFinishedRun(
  events: readonly RunEvent[],
  registered: RegisteredWorkflow,
  vars: Readonly<Record<string, string>>,
): Promise<{ appended: unknown[]; expected: unknown[]; sandboxUses: number }> {
  const overrides = modelOverridesFromEnv(vars);
  const models = new EnvModelResolver({ mode: "live", secrets: vars, overrides });
  const history = events as unknown as EngineEvent[];
  const runId = events[0]?.runId ?? "run";
  const run: ScenarioRun = { registered: { ...registered, modelOverrides: overrides }, input: undefined, models };
  const outcome = await replayDeep(history, run, runId);
  expect(outcome.preloaded).toBeGreaterThan(0);
  return outcome;
}
