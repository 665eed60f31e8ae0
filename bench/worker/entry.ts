/**
 * The bench Worker (bench/wrangler.bench.toml): the production Worker as is — the same fetch,
 * scheduled and queue handlers, the same Durable Object classes and entrypoint — plus the peer
 * Workflow, a bench run object, the bench routes, and the bench workflows and counting models
 * installed through the wiring seam at module load.
 */

import { overrideWiring } from "../../src/wiring.ts";
import worker from "../../src/worker.ts";
import { benchCatalog } from "./bench-workflows.ts";
import { burstRoutes } from "./burst-routes.ts";
import { codeRunRoutes } from "./code-run-routes.ts";
import { countingModels } from "./counting-models.ts";
import { countD1Calls, delayedD1 } from "./delayed-d1.ts";
import { flowRoutes } from "./flow-routes.ts";
import { latencyRoutes } from "./latency-routes.ts";
import { type BenchEnv, benchRoutes } from "./routes.ts";
import { type WaitBenchEnv, waitRoutes } from "./wait-routes.ts";

export { BulkJobObject, FlowLimiterObject, LittleWorkflowEntrypoint, NetworkGate, RunObject, SandboxContainer } from "../../src/worker.ts";
export { BenchRunObject } from "./bench-run-object.ts";
export { BenchChainWorkflow } from "./peer-chain.ts";
export { BenchWaitWorkflow } from "./peer-wait.ts";

overrideWiring({ models: countingModels, workflows: benchCatalog, database: delayedD1 });

/** The D1 round trips a request made before its response was ready (the ack), as a header the bench reads. */
const D1_CALLS_HEADER = "x-bench-d1-before-answer";

// `Record<keyof typeof worker, unknown>`: a handler added to the production Worker and not here fails tsc.
export default {
  async fetch(request, env, ctx) {
    const path = new URL(request.url).pathname;
    if (path.startsWith("/bench/burst/")) return burstRoutes.fetch(request, env, ctx);
    if (path.startsWith("/bench/code-run/")) return codeRunRoutes.fetch(request, env, ctx);
    if (path === "/bench/d1") return latencyRoutes.fetch(request, env, ctx);
    if (path.startsWith("/bench/waits/")) return waitRoutes.fetch(request, env as WaitBenchEnv, ctx);
    if (path.startsWith("/bench/flow/")) return flowRoutes.fetch(request, env, ctx);
    if (path.startsWith("/bench/")) return benchRoutes.fetch(request, env, ctx);
    const { result, calls } = await countD1Calls(async () => worker.fetch(request, env, ctx));
    const answer = new Response(result.body, result);
    answer.headers.set(D1_CALLS_HEADER, String(calls));
    return answer;
  },
  scheduled: (controller, env, ctx) => worker.scheduled(controller, env, ctx),
  queue: (batch, env, ctx) => worker.queue(batch, env, ctx),
} satisfies ExportedHandler<BenchEnv> & Record<keyof typeof worker, unknown>;
