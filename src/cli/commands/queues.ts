import { clientFrom } from "../api-client.ts";
import { parseCommand } from "../args.ts";
import { colorEnabled, painter, print, table } from "../output.ts";
import { QUEUES_USAGE } from "../usage.ts";

/**
 * `little queues <workflow>`: the workflow's flow-control keys (docs/flow-control.md), each with
 * its limit and how many runs run and wait; `little runs --wait-reason concurrency` lists the waiting runs.
 */
export async function queuesCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommand("queues", args, {}, { min: 1, max: 1, names: "the workflow id" });
  if (values.help) {
    print(`usage: little ${QUEUES_USAGE}`);
    return 0;
  }
  const body = await clientFrom(values).listWorkflowQueues(positionals[0] as string);
  if (values.json) {
    print(JSON.stringify(body, null, 2));
    return 0;
  }
  if (body.queues.length === 0) {
    print("no flow-control keys used yet");
    return 0;
  }
  const rows = body.queues.map((q) => [
    q.kind === "throttle" ? `throttle ${q.limit}/${q.periodMs ?? 0}ms` : `concurrency[${q.index}] ${q.limit}`,
    q.key,
    String(q.running),
    q.queued > 0 ? { text: String(q.queued), format: "yellow" as const } : "0",
    new Date(q.updatedAt).toISOString(),
  ]);
  print(table(["LIMIT", "KEY", "RUNNING", "QUEUED", "UPDATED"], rows, painter(colorEnabled())));
  return 0;
}
