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

/** What a minted run anchor's id looks like (`POST /v1/workflows/{id}/anchors`): `run_` and 24 hex digits. */
const ANCHOR_ID = /^run_[0-9a-f]{24}$/;

/** A fresh run anchor's id. */
export function mintAnchorId(): string {
  return `run_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`;
}

/**
 * Whether a caller's run id may be a minted anchor. One that cannot (any other shape: `order-1234`)
 * needs no anchor lookup in D1 before its start's ack; one that can costs that read (docs/runs.md,
 * "Where a start waits").
 */
export function mayBeAnchorId(runId: string): boolean {
  return ANCHOR_ID.test(runId);
}
