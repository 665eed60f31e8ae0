/**
 * `createWorker`: a Worker project's default export, built from its own workflows and tools. The
 * package's `little-workflow/worker` entry; the repository's own src/worker.ts is one user of it.
 */
import { app } from "./api/app.ts";
import { catalogOf, type RegisteredWorkflow, type WorkflowCatalog } from "./engine/run-environment.ts";
import type { WorkflowDefinition } from "./sdk/define-workflow.ts";
import { WorkflowDefinitionError } from "./sdk/errors/workflow-definition-error.ts";
import { WorkflowMissingToolError } from "./sdk/errors/workflow-missing-tool-error.ts";
import type { ToolRegistry } from "./sdk/tool.ts";
import { handleQueue, handleScheduled } from "./triggers/handlers.ts";
import { installWorkflows } from "./wiring.ts";

/** A workflow the Worker serves: a definition (its `globalTools` resolve in `tools`), or one with its own registry. */
export type WorkerWorkflow = WorkflowDefinition | { readonly definition: WorkflowDefinition; readonly tools?: ToolRegistry };

export type CreateWorkerOptions = {
  /** The workflows this Worker can start, by their ids (each id once). */
  readonly workflows: readonly WorkerWorkflow[];
  /** The tools every workflow's `globalTools` names are looked up in. */
  readonly tools?: ToolRegistry;
};

/** The Worker's default export: the /v1 API and inspector, cron ticks and queue messages. */
export type LittleWorker<E> = {
  fetch(request: Request, env: E, ctx: ExecutionContext): Response | Promise<Response>;
  scheduled(controller: ScheduledController, env: E, ctx: ExecutionContext): Promise<void>;
  queue(batch: MessageBatch<unknown>, env: E, ctx: ExecutionContext): Promise<void>;
};

/**
 * Registers the workflows for this isolate and returns the handlers to `export default`. Call it
 * once, in the Worker's entry module: the run objects of the same Worker read the registry it
 * installs. Throws at module load (so `wrangler dev` and `wrangler deploy` fail before serving)
 * when an id is registered twice ({@link WorkflowDefinitionError}, `workflow_definition_invalid`)
 * or a `globalTools` name is not in `tools` ({@link WorkflowMissingToolError}).
 *
 * @example
 * import { createWorker, NetworkGate, RunObject, SandboxContainer } from "little-workflow/worker";
 * import { summarize } from "./workflows/summarize.ts";
 * import { crmLookup } from "./tools/crm.ts";
 *
 * export { NetworkGate, RunObject, SandboxContainer };
 * export default createWorker<Env>({ workflows: [summarize], tools: { crmLookup } });
 */
export function createWorker<E = Env>(options: CreateWorkerOptions): LittleWorker<E> {
  installWorkflows(workerCatalog(options));
  // The handlers read their bindings through the wiring, which types them as this Worker's Env;
  // the caller's E names the same object (its own `wrangler types` output).
  const asEnv = (env: E) => env as unknown as Env;
  return {
    fetch: (request, env, ctx) => app.fetch(request, asEnv(env), ctx),
    scheduled: (controller, env, ctx) => handleScheduled(controller, asEnv(env), ctx),
    queue: (batch, env, ctx) => handleQueue(batch, asEnv(env), ctx),
  };
}

/** The registry of {@link CreateWorkerOptions}, checked: ids unique, every global tool present. */
export function workerCatalog(options: CreateWorkerOptions): WorkflowCatalog {
  const globals = options.tools ?? {};
  const entries: RegisteredWorkflow[] = options.workflows.map((w) =>
    "definition" in w ? { definition: w.definition, tools: { ...globals, ...(w.tools ?? {}) } } : { definition: w, tools: globals },
  );
  const seen = new Set<string>();
  for (const { definition, tools } of entries) {
    if (seen.has(definition.id)) {
      throw new WorkflowDefinitionError(definition.id, [
        {
          severity: "error",
          code: "workflow.duplicate_id",
          path: "$.id",
          message: `createWorker was given two workflows with the id "${definition.id}"`,
        },
      ]);
    }
    seen.add(definition.id);
    const missing = definition.globalTools.filter((id) => !Object.hasOwn(tools, id));
    if (missing.length > 0) throw new WorkflowMissingToolError(definition.id, missing);
  }
  return catalogOf(entries);
}
