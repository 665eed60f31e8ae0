import { digestJson, digestPrefix } from "../../json/digest.ts";
import { assertCallerRunId } from "./derived-run-ids.ts";

/**
 * The run id a start uses: the caller's, else one derived from the idempotency key (so a retry
 * finds its run, whichever door it came through: HTTP, RPC or a queue message with a key), else a
 * fresh one.
 */
export function runIdFor(
  tenant: string,
  workflowId: string,
  runId: string | undefined,
  key: string | undefined,
  via: "workflow" | "lwir" = "workflow",
): string {
  if (runId !== undefined) {
    // A caller may not choose an id the Worker derives for its triggers (run_wh_, run_cron_, run_q_).
    assertCallerRunId(runId);
    return runId;
  }
  // A key given to `POST /v1/lwir/runs` names another run than the same key given to the workflow's route.
  if (key) return `run_${digestPrefix(digestJson(via === "lwir" ? { tenant, workflowId, key, via } : { tenant, workflowId, key }), 24)}`;
  return `run_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`;
}
