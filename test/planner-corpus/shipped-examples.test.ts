import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { plannerPromptSizes, submitLwirParameters } from "../../bench/planner-prompt-size.ts";
import { digestText } from "../../src/json/digest.ts";
import type { RunView } from "../../src/ports/run-handle.ts";
import type { JsonSchema } from "../../src/schema/normalize-schema.ts";
import { validateJson } from "../../src/schema/validate-json.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { runStub } from "../support/drive.ts";
import type { Json } from "./plans.ts";
import type { BashResult } from "./replay-model.ts";
import { driveUntil, runTranscript, type TranscriptRun } from "./run-transcript.ts";
import { shippedTurns } from "./shipped-transcripts.ts";
import { SHIPPED, shippedTask } from "./tasks.ts";

afterEach(() => overrideWiring({}));

/** The first planner request of each shipped example's run, for the prompt-size check. */
const firstRequests = new Map<string, TranscriptRun["firstRequest"]>();

const ended = (_events: unknown, view: RunView) => ["completed", "failed", "cancelled"].includes(view.status);

const bashOut = (call: { result: unknown } | undefined): BashResult =>
  (call?.result ?? { exitCode: -1, stdout: "", stderr: "" }) as BashResult;

/** The transcript's planning half: every lwir-check said OK and the FIRST submission was accepted. */
function expectFirstSubmissionAccepted(run: TranscriptRun) {
  firstRequests.set(String(run.events[0] && (run.events[0].payload as { workflowId: string }).workflowId), run.firstRequest);
  expect(run.submissions).toHaveLength(1);
  expect(run.submissions[0]).toMatchObject({ accepted: true, findings: [] });
  const checks = run.calls.filter((c) => c.tool === "bash" && String((c.input as { command: string }).command).includes("lwir-check"));
  expect(checks).toHaveLength(1);
  expect(bashOut(checks[0]).stdout).toContain("OK: submit_lwir would accept this draft.");
  expect(run.calls.every((c) => c.tool !== "bash" || (c.result as BashResult).exitCode === 0)).toBe(true);
}

async function expectRegistered(run: TranscriptRun) {
  const registered = run.events.find((e) => e.type === "WorkflowVersionRegistered")?.payload as { versionId: string };
  expect(registered.versionId).toMatch(/^wfver_[0-9a-f]{16}$/);
  const row = await env.DB.prepare("SELECT hash, canonical_json FROM workflow_versions WHERE id = ?")
    .bind(registered.versionId)
    .first<{ hash: string; canonical_json: string }>();
  expect(row?.hash).toBe(digestText(row?.canonical_json ?? ""));
  // What was registered is exactly what the model submitted.
  const submitted = run.calls.find((c) => c.tool === "submit_lwir")?.input as { lwir: Json };
  expect(JSON.parse(row?.canonical_json ?? "null")).toEqual(submitted.lwir);
  return registered.versionId;
}

/** The sha256sum the model ran is the digest its plan carries (and the true digest of the file). */
function expectDigestFromBash(run: TranscriptRun, file: string, content: string) {
  const sum = run.calls.find((c) => c.tool === "bash" && String((c.input as { command: string }).command).includes(`sha256sum ${file}`));
  const hex = bashOut(sum).stdout.split(/\s+/)[0];
  expect(`sha256:${hex}`).toBe(digestText(content));
  const submitted = JSON.stringify(run.calls.find((c) => c.tool === "submit_lwir")?.input);
  expect(submitted).toContain(`sha256:${hex}`);
}

describe("shipped examples plan for real: first submission accepted, run completes", () => {
  it("covers every shipped workflow", () => {
    expect(SHIPPED).toHaveLength(8);
  });

  it("support.summarize-ticket: one ai.generate step", async () => {
    const t = await shippedTask("support.summarize-ticket");
    const run = await runTranscript(t.workflowId, t.input, shippedTurns(t), ended);
    expectFirstSubmissionAccepted(run);
    expect(run.view.status).toBe("completed");
    expect(run.view.versionId).toBe(await expectRegistered(run));
    expect(validateJson(t.task.outputSchema as JsonSchema, run.view.output, "x").valid).toBe(true);
  });

  it("support.reply-draft (the flow-control example): one ai.generate step", async () => {
    const t = await shippedTask("support.reply-draft");
    const run = await runTranscript(t.workflowId, t.input, shippedTurns(t), ended);
    expectFirstSubmissionAccepted(run);
    expect(run.view.status).toBe("completed");
  });

  it("ops.daily-digest (the scheduled example): one ai.generate step", async () => {
    const t = await shippedTask("ops.daily-digest");
    const run = await runTranscript(t.workflowId, t.input, shippedTurns(t), ended);
    expectFirstSubmissionAccepted(run);
    expect(run.view.status).toBe("completed");
    expect(run.view.versionId).toBe(await expectRegistered(run));
    expect(validateJson(t.task.outputSchema as JsonSchema, run.view.output, "x").valid).toBe(true);
  });

  it("support.triage-inbox: classify → decision → urgent/normal drafting → join in code.run", async () => {
    const t = await shippedTask("support.triage-inbox");
    // A section: the run's own input is the first occurrence; then it waits for the next message.
    const run = await runTranscript(
      t.workflowId,
      t.input,
      shippedTurns(t),
      (_e, view) => view.occurrences?.completed === 1 || ended(_e, view),
    );
    expectFirstSubmissionAccepted(run);
    expectDigestFromBash(run, "code/pick.ts", (await import("./plans.ts")).PICK_SOURCE);
    await expectRegistered(run);
    const o1 = run.view.occurrences?.latest[0];
    expect(o1?.status).toBe("completed");
    expect(validateJson(t.task.outputSchema as JsonSchema, o1?.output, "x").valid).toBe(true);
    const steps = run.events.filter((e) => e.type === "StepSucceeded").map((e) => (e.payload as { stepPath: string }).stepPath);
    expect(steps.some((p) => p.includes("route"))).toBe(true);
    expect(steps.some((p) => p.includes("pick"))).toBe(true);
    // The decision chose exactly one branch; the other was skipped.
    expect(steps.filter((p) => p.includes("urgent") || p.includes("normal"))).toHaveLength(1);
    const skipped = run.events.filter((e) => e.type === "StepSkipped").map((e) => (e.payload as { stepPath: string }).stepPath);
    expect(skipped).toHaveLength(1);
    await runStub(run.runId).cancel("triage: first message checked");
  });

  it("billing.refund: one tool.call, approved by a person", async () => {
    const t = await shippedTask("billing.refund");
    const asked = (_e: unknown, view: RunView) => (view.approvals?.length ?? 0) > 0 || ended(_e, view);
    const run = await runTranscript(t.workflowId, t.input, shippedTurns(t), asked);
    expectFirstSubmissionAccepted(run);
    await expectRegistered(run);
    const approval = run.view.approvals?.[0];
    expect(approval).toMatchObject({ tool: "billing.issue-refund", args: { orderId: "ord_77", amountCents: 1250 } });
    const decided = await runStub(run.runId).decideApproval({
      approvalId: approval?.approvalId as string,
      decision: "approved",
      argsHash: approval?.argsHash as string,
    });
    expect(decided).toMatchObject({ created: true, approval: { status: "approved" } });
    const view = await driveUntil(run.runId, ended);
    expect(view.status).toBe("completed");
    expect(view.output).toMatchObject({ orderId: "ord_77", amountCents: 1250, refundId: expect.stringMatching(/^rf_/) });
  });

  it("billing.refund-review: wait.signal with a timeout branch; the manager's signal lets it answer", async () => {
    const t = await shippedTask("billing.refund-review");
    const awaiting = (_e: unknown, view: RunView) => view.waitReason === "signal" || ended(_e, view);
    const run = await runTranscript(t.workflowId, t.input, shippedTurns(t), awaiting);
    expectFirstSubmissionAccepted(run);
    await expectRegistered(run);
    expect(run.view.awaitingSignals?.map((s) => s.name)).toEqual(["manager.decision"]);
    const sent = await runStub(run.runId).sendSignal({ name: "manager.decision", payload: { approved: true, note: "ok" } });
    expect(sent).toMatchObject({ created: true, signal: { name: "manager.decision" } });
    const view = await driveUntil(run.runId, ended);
    expect(view.status).toBe("completed");
    expect(validateJson(t.task.outputSchema as JsonSchema, view.output, "x").valid).toBe(true);
  });

  it("billing.invoice-totals: code.run from the skill, digest by sha256sum; the fixer repairs the shipped bug", async () => {
    const t = await shippedTask("billing.invoice-totals");
    const run = await runTranscript(t.workflowId, t.input, shippedTurns(t), ended);
    expectFirstSubmissionAccepted(run);
    expectDigestFromBash(
      run,
      "totals.ts",
      (t.plan as { steps: { with: { files: Record<string, { content: string }> } }[] }).steps[0]?.with.files["totals.ts"]
        ?.content as string,
    );
    expect(run.view.status).toBe("completed");
    expect(run.view.versionId).toBe(await expectRegistered(run));
    expect(run.view.output).toEqual({ invoiceId: "inv_9", subtotalCents: 6497, taxCents: 1299, totalCents: 7796 });
    // The skill's code fails once (input.lineitems) and the step's fixer session repairs it.
    const roles = run.events.filter((e) => e.type === "harness.session.started").map((e) => (e.payload as { role: string }).role);
    expect(roles).toEqual(["planner", "fixer"]);
  });

  it("support.escalate: a workflow.run of billing.refund, started as a child run the parent waits for", async () => {
    const t = await shippedTask("support.escalate");
    const childStarted = (events: { type: string }[], view: RunView) =>
      events.some((e) => e.type === "ChildRunStarted") || ended(events, view);
    const run = await runTranscript(t.workflowId, t.input, shippedTurns(t), childStarted);
    expectFirstSubmissionAccepted(run);
    await expectRegistered(run);
    // The prompt showed the kind and the callee's schemas only because the definition declares a callee.
    expect(run.firstRequest.system).toContain('uses "workflow.run" → with');
    expect(run.firstRequest.user).toContain('"callableWorkflows"');
    const started = run.events.find((e) => e.type === "ChildRunStarted")?.payload as { workflowId: string; childRunId: string };
    expect(started).toMatchObject({ workflowId: "billing.refund", childRunId: expect.stringMatching(/^run_child_/) });
    // The child is a run of its own, whose parent is this run; cancelling the parent cancels it.
    expect((await runStub(started.childRunId).status()).parent).toMatchObject({ runId: run.runId, stepPath: "c1/refund" });
    await runStub(run.runId).cancel("escalate: the child was started");
    expect((await runStub(started.childRunId).status()).status).toBe("cancelled");
  });

  it("bench/planner-prompt-size.ts measures what the model really receives", async () => {
    const sizes = await plannerPromptSizes();
    expect(sizes.map((s) => s.workflowId).sort()).toEqual([...firstRequests.keys()].sort());
    for (const size of sizes) {
      const sent = firstRequests.get(size.workflowId);
      expect(sent?.system.length, size.workflowId).toBe(size.systemChars);
      expect(sent?.user.length, size.workflowId).toBe(size.userChars);
      expect(JSON.stringify(sent?.submitLwir?.inputSchema)).toBe(JSON.stringify(submitLwirParameters(size.workflowId)));
      expect(size.approxTokens).toBe(Math.round(size.totalChars / 4));
    }
  });
});
