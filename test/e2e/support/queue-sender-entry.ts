/**
 * The repository's Worker for the triggers e2e, plus `POST /__test/queue`, which sends its JSON
 * body to the runs queue through the `LITTLE_RUNS_QUEUE` producer binding — as a user's own code
 * (or another Worker bound to the queue) would. Local queues need no network under `wrangler dev`.
 */
import worker from "../../../src/worker.ts";

export * from "../../../src/worker.ts";

type Producer = { send(body: unknown): Promise<void> };

export default {
  ...worker,
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    if (request.method === "POST" && new URL(request.url).pathname === "/__test/queue") {
      await (env as unknown as { LITTLE_RUNS_QUEUE: Producer }).LITTLE_RUNS_QUEUE.send(await request.json());
      return new Response(null, { status: 202 });
    }
    return worker.fetch(request, env, ctx);
  },
};
