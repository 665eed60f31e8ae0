import { appendEvents, SliceYieldSignal } from "../../harness/harness-context.ts";
import { digestJson, digestPrefix } from "../../json/digest.ts";
import type { ToolCallStep } from "../../lwir/types.ts";
import type { ToolDefinition } from "../../sdk/tool.ts";
import { StepAttemptError } from "../step-failure.ts";
import type { StepAttempt } from "./step-context.ts";

/** How long a tool call waits for its approval when the step sets no `timeoutMs`. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 24 * 60 * 60 * 1_000;

/**
 * Holds a `tool.call` whose tool declares `needsApproval` until a person decides. The request —
 * tool, arguments, the arguments' hash, and when it expires — is appended once per attempt
 * (`ApprovalRequested`); the slice then yields until the decision (`ApprovalDecided`, which wakes
 * the run) or the expiry. Approved: the call proceeds with exactly the arguments approved (the
 * decision carries their hash). Denied or expired: the step fails, not retried.
 */
export async function awaitApproval(step: ToolCallStep, a: StepAttempt, live: ToolDefinition, input: unknown): Promise<void> {
  const needs =
    typeof live.needsApproval === "function"
      ? await live.needsApproval(input as never, { toolCallId: a.stepPath, messages: [] } as never)
      : live.needsApproval === true;
  if (!needs) return;
  const { ctx, stepPath, attempt } = a;
  const approvalId = `apr_${digestPrefix(digestJson([ctx.runId, stepPath, attempt]), 20)}`;
  const argsHash = digestJson(input);
  const state = await a.env.run.current();
  let asked = state.approvals.get(approvalId);
  if (!asked) {
    const expiresAt = ctx.clock.now() + (step.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS);
    const request = { approvalId, stepPath, tool: step.with.tool, args: input, argsHash, expiresAt };
    await appendEvents(ctx, [{ type: "ApprovalRequested", payload: request }]);
    asked = request;
  }
  // Recomputed now: a version that renders other arguments on replay must not reuse the approval.
  if (asked.argsHash !== argsHash)
    throw new StepAttemptError("approval_args_mismatch", `Approval ${approvalId} was asked for other arguments than this call's`, false);
  const decision = asked.decision;
  if (decision?.decision === "approved") return;
  if (decision?.decision === "denied")
    throw new StepAttemptError(
      "approval_denied",
      `Tool "${step.with.tool}" was denied${decision.reason ? `: ${decision.reason}` : ""}`,
      false,
    );
  if (ctx.clock.now() >= asked.expiresAt)
    throw new StepAttemptError("approval_timeout", `No decision on approval ${approvalId} before it expired`, false);
  throw new SliceYieldSignal(asked.expiresAt);
}
