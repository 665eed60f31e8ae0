/**
 * The bench Worker (bench/wrangler.bench.toml): the production Worker as is — same fetch handler,
 * same run object — plus the peer Workflow, a bench run object, the bench routes, and the bench
 * workflows and counting models installed through the wiring seam at module load.
 */

import { overrideWiring } from "../../src/wiring.ts";
import worker from "../../src/worker.ts";
import { benchCatalog } from "./bench-workflows.ts";
import { countingModels } from "./counting-models.ts";
import { type BenchEnv, benchRoutes } from "./routes.ts";

export { NetworkGate, RunObject, SandboxContainer } from "../../src/worker.ts";
export { BenchRunObject } from "./bench-run-object.ts";
export { BenchChainWorkflow } from "./peer-chain.ts";

overrideWiring({ models: countingModels, workflows: benchCatalog });

export default {
  fetch(request, env, ctx) {
    if (new URL(request.url).pathname.startsWith("/bench/")) return benchRoutes.fetch(request, env, ctx);
    return worker.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<BenchEnv>;
