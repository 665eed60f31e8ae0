/**
 * Issue 27's measured figure: corpus plans accepted by `submit_lwir` that then fail at run time
 * for a type or tool reason. Each transcript's accepted draft is run for real (POST /v1/lwir/runs:
 * the run object, D1, the isolate sandbox, the offline model, the shipped tools) and its outcome
 * classified; the drafts validator @1 accepted and @2 refuses are listed (what used to get through).
 * Prints the figures BENCHMARKS.md §8 quotes.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { type DefinitionCapabilities, snapshotDefinition } from "../../src/identity/definition-snapshot.ts";
import { LEGACY_LWIR_VALIDATOR_ID } from "../../src/identity/lwir-validator-id.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { registeredWorkflows } from "../../src/workflows.ts";
import { call } from "../api/support/api-call.ts";
import { runStub } from "../support/drive.ts";
import { CORPUS } from "./cases.ts";
import { draftObject, submitDirect } from "./submit-direct.ts";
import { shippedTask } from "./tasks.ts";

beforeEach(() => overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {} }) }));
afterEach(() => overrideWiring({}));

/** Step error codes that mean the plan's values did not fit a schema, or a tool was misused. */
const TYPE_OR_TOOL = /tool_input_invalid|tool_output_invalid|output_invalid|schema|tool_not|missing/;

type Outcome = { status: string; cause?: string };

async function withoutRequiredTools(workflowId: string, caps: DefinitionCapabilities): Promise<DefinitionCapabilities> {
  const registered = registeredWorkflows.find((w) => w.definition.id === workflowId);
  if (!registered?.definition.requiredTools) return caps;
  const { requiredTools: _dropped, ...definition } = registered.definition;
  return snapshotDefinition(definition, registered.tools);
}

type RunView = { status: string; waitReason?: string; cause?: { code: string; message?: string } };

/** Approves every pending tool call (the person approving the refund), then reads how the run ends. */
async function approveAndFinish(runId: string): Promise<RunView> {
  const approvals = (await call("GET", `/v1/runs/${runId}/approvals`)).json.approvals as {
    approvalId: string;
    argsHash: string;
    status: string;
  }[];
  for (const a of approvals.filter((x) => x.status === "waiting_for_approval"))
    await call("POST", `/v1/runs/${runId}/approvals/${a.approvalId}`, { body: { decision: "approve", argsHash: a.argsHash } });
  await runStub(runId, "dev").waitForEnd(10_000);
  const run = (await call("GET", `/v1/runs/${runId}`)).json.run as RunView;
  return { ...run, waitReason: undefined } as RunView;
}

/** A section waits for triggers once its first occurrence ran: that occurrence's outcome is the plan's. */
async function firstOccurrence(runId: string): Promise<RunView> {
  const events = (await call("GET", `/v1/runs/${runId}/events?limit=1000`)).json.events as {
    type: string;
    payload: { causeCode?: string; message?: string };
  }[];
  const failed = events.find((e) => e.type === "OccurrenceFailed");
  if (failed) return { status: "failed", cause: { code: String(failed.payload.causeCode), message: failed.payload.message ?? "" } };
  return {
    status: events.some((e) => e.type === "OccurrenceCompleted") ? "occurrence completed" : "no occurrence ended",
    waitReason: undefined,
  } as RunView;
}

describe("corpus plans at run time", () => {
  it("figures for BENCHMARKS.md §8: accepted plans that fail at run time for a type or tool reason: 0", { timeout: 240_000 }, async () => {
    const outcomes: Record<string, Outcome> = {};
    const gotThroughBefore: string[] = [];
    for (const c of CORPUS) {
      const t = await shippedTask(c.workflow);
      // Before: validator @1, and a definition without requiredTools (billing.refund declared none).
      const legacy = { ...(await withoutRequiredTools(c.workflow, t.caps)), lwirValidator: LEGACY_LWIR_VALIDATOR_ID };
      let submitted = c.draft(t);
      let accepted: unknown;
      for (let i = 0; i <= (c.repairs?.length ?? 0); i++) {
        const answer = submitDirect(submitted, t.caps);
        if (!answer.accepted && submitDirect(submitted, legacy).accepted) gotThroughBefore.push(c.id);
        if (answer.accepted) {
          accepted = draftObject(submitted);
          break;
        }
        const repair = c.repairs?.[i];
        if (!repair) break;
        submitted = repair(draftObject(submitted), answer.findings, t);
      }
      expect(accepted, c.id).toBeDefined();
      // billing.refund's plans wait for the person approving the refund call: a short wait, then its status.
      const wait = c.workflow === "billing.refund" ? 1 : 15;
      const runId = `run_corpus_${c.id}`;
      const r = await call("POST", `/v1/lwir/runs?wait=${wait}`, { body: { lwir: accepted, input: t.input, runId } });
      expect([200, 202], `${c.id}: ${r.text}`).toContain(r.status);
      const run = (r.status === 200 ? r.json.run : (await call("GET", `/v1/runs/${runId}`)).json.run) as RunView;
      if (run.waitReason === "approval") Object.assign(run, await approveAndFinish(runId));
      if (run.waitReason === "trigger") Object.assign(run, await firstOccurrence(runId));
      outcomes[c.id] = {
        status: run.waitReason ? `${run.status}:${run.waitReason}` : run.status,
        ...(run.cause ? { cause: `${run.cause.code}: ${run.cause.message ?? ""}` } : {}),
      };
    }
    const failedForTypeOrTool = Object.entries(outcomes).filter(([, o]) => o.status === "failed" && TYPE_OR_TOOL.test(o.cause ?? ""));
    const statuses: Record<string, number> = {};
    for (const o of Object.values(outcomes)) statuses[o.status] = (statuses[o.status] ?? 0) + 1;
    console.log(
      JSON.stringify(
        { transcripts: CORPUS.length, statuses, failedForTypeOrTool, acceptedByV1RefusedByV2: [...new Set(gotThroughBefore)] },
        null,
        2,
      ),
    );
    expect(failedForTypeOrTool).toEqual([]);
    // No accepted plan fails at all: every run (after its refund is approved) completes, every section's first occurrence too.
    expect(Object.values(outcomes).filter((o) => o.status !== "completed" && o.status !== "occurrence completed")).toEqual([]);
    expect(new Set(gotThroughBefore).size).toBeGreaterThanOrEqual(2);
    console.log(JSON.stringify(outcomes));
  });
});
