/**
 * The peer of the signal round trip: a Cloudflare Workflow that waits for one event
 * (`step.waitForEvent`) and stamps the time its wait returned, so the bench route times
 * `instance.sendEvent` → the wait's end from inside the process.
 */
import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from "cloudflare:workers";

export type PeerWaitOutput = { wokeAt: number };

export class BenchWaitWorkflow extends WorkflowEntrypoint<Env, Record<string, never>> {
  override async run(_event: Readonly<WorkflowEvent<Record<string, never>>>, step: WorkflowStep): Promise<PeerWaitOutput> {
    await step.waitForEvent("decision", { type: "decision", timeout: "1 hour" });
    return { wokeAt: Date.now() };
  }
}
