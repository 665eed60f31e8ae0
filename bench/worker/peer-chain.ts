/**
 * The peer: a Cloudflare Workflow that runs `steps` no-op `step.do` calls in a row, the same shape
 * as the no-op LWIR chain. It stamps the time its first line runs and the time its last step
 * returned, so the bench route can time it from inside the process (TOOLCHAIN.md: a polling
 * client distorts Workflows' timing).
 */
import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from "cloudflare:workers";

export type PeerChainParams = { steps: number };
export type PeerChainOutput = { startedAt: number; endedAt: number; steps: number };

export class BenchChainWorkflow extends WorkflowEntrypoint<Env, PeerChainParams> {
  override async run(event: Readonly<WorkflowEvent<PeerChainParams>>, step: WorkflowStep): Promise<PeerChainOutput> {
    const startedAt = Date.now();
    for (let i = 0; i < event.payload.steps; i++) await step.do(`s${i + 1}`, async () => i);
    return { startedAt, endedAt: Date.now(), steps: event.payload.steps };
  }
}
