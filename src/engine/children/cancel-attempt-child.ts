import type { SliceEnvironment } from "../run-environment.ts";

/**
 * @module A `workflow.run` attempt that passed its step's `timeoutMs` gives up on its child: the
 * child still running is cancelled (told why), so a retry's fresh child never runs beside the
 * abandoned one and a failed step leaves nothing behind that keeps working or spending.
 */

/**
 * Cancels the child of `stepPath`'s `attempt` when it has not ended. Best effort, like the cancel of
 * a cancelled parent's children: a child that cannot be reached now ends on its own, and its end is
 * then told to a parent whose step has moved on (recorded, never taken as the step's answer).
 */
export async function cancelAttemptChild(env: SliceEnvironment, stepPath: string, attempt: number, reason: string): Promise<void> {
  const state = await env.run.current();
  const child = state.children.find((c) => c.stepPath === stepPath && c.attempt === attempt && !c.ended);
  if (!child) return;
  const tenant = state.request?.tenant ?? "default";
  await env.children
    .cancel(tenant, child.childRunId, child.placement, `its parent run ${env.runId} gave up on step ${stepPath}: ${reason}`)
    .catch((error: unknown) => {
      console.error(
        `run ${env.runId}: cancelling child ${child.childRunId} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
}
