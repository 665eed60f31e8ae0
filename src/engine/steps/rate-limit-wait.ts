/**
 * @module A step's model call waiting on its model's shared limiter, told to the log
 * (docs/flow-control.md, "Model limits"): `ModelRateLimited` before the wait, so the run view and
 * the run index say `waiting` with `waitReason: "rate_limit"` (and survive an eviction: a resumed
 * run folds the same), and `ModelRateLimitLifted` when the call goes, so the run is `running` again.
 */
import { appendEvents } from "../../harness/harness-context.ts";
import type { RateLimitReport } from "../../harness/rate-limited-model.ts";
import { indexRun, latestRegistration } from "../run-host/index-run.ts";
import type { StepAttempt } from "./step-context.ts";

/**
 * The report of one step attempt's rate-limit waits for the model `identity`. `waiting` logs the
 * wait (once per wait: the limiter is asked again every second) and indexes the run `waiting`;
 * `proceeding` lifts a wait the log holds open for the step, this slice's or one a crash left
 * (the call, issued again on resume, may be let go at once).
 */
export function rateLimitReport(a: StepAttempt, identity: { readonly providerId: string; readonly modelId: string }): RateLimitReport {
  const { stepPath } = a;
  const openWait = async () => (await a.env.run.current()).stepWaits.get(stepPath)?.reason === "rate_limit";
  const reindex = async () => {
    const now = await a.env.run.current();
    await indexRun(a.env, now, now.status, { ...latestRegistration(now), waitReason: now.waitReason });
  };
  return {
    async waiting(until) {
      if (await openWait()) return;
      await appendEvents(a.ctx, [{ type: "ModelRateLimited", payload: { stepPath, ...identity, until } }]);
      await reindex();
    },
    async proceeding() {
      if (!(await openWait())) return;
      await appendEvents(a.ctx, [{ type: "ModelRateLimitLifted", payload: { stepPath, ...identity } }]);
      await reindex();
    },
  };
}
