import type { BulkActionRequest, BulkJob } from "../../client/api-types.ts";
import { clientFrom } from "../api-client.ts";
import { parseCommand } from "../args.ts";
import { CliInputError } from "../cli-error.ts";
import { print } from "../output.ts";
import { BULK_USAGE } from "../usage.ts";

/**
 * `little bulk cancel|delete [--workflow …] [--status …] [--wait-reason …] [--created-after …]
 * [--created-before …] [--dry-run]` starts a bulk job and prints its id; `little bulk status
 * <job-id>` shows its progress (docs/runs.md, "Bulk actions").
 */
export async function bulkCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommand(
    "bulk",
    args,
    {
      workflow: { type: "string" },
      status: { type: "string" },
      "wait-reason": { type: "string" },
      "created-after": { type: "string" },
      "created-before": { type: "string" },
      "dry-run": { type: "boolean" },
    },
    { min: 1, max: 2, names: "the action (cancel, delete) or status <job-id>" },
  );
  if (values.help) {
    print(`usage: little ${BULK_USAGE}`);
    return 0;
  }
  const [action, jobId] = positionals as [string, string | undefined];
  const client = clientFrom(values);
  if (action === "status") {
    if (!jobId) throw new CliInputError("usage", 'little bulk status: missing the job id; run "little help"');
    return show((await client.getBulkAction(jobId)).job, values.json === true);
  }
  if (jobId !== undefined) throw new CliInputError("usage", `little bulk ${action}: unexpected argument "${jobId}"`);
  const filter = {
    ...(values.workflow ? { workflowId: values.workflow } : {}),
    ...(values.status ? { status: values.status } : {}),
    ...(values["wait-reason"] ? { waitReason: values["wait-reason"] } : {}),
    ...(values["created-after"] ? { createdAfter: values["created-after"] } : {}),
    ...(values["created-before"] ? { createdBefore: values["created-before"] } : {}),
  };
  // Sent as given: the server refuses an unknown action, status or date with a named 422.
  const request = { action, filter, dryRun: values["dry-run"] === true } as BulkActionRequest;
  const { job } = await client.startBulkAction(request);
  return show(job, values.json === true);
}

function show(job: BulkJob, json: boolean): number {
  if (json) {
    print(JSON.stringify({ job }, null, 2));
    return 0;
  }
  const what = job.dryRun ? `${job.action} (dry run)` : job.action;
  print(`${job.jobId}  ${what}  ${job.state}  matched ${job.matched}  done ${job.done}  failed ${job.failed}`);
  for (const f of job.failures) print(`  ${f.runId}: ${f.code} ${f.message}`);
  if (job.sample && job.sample.length > 0) print(`  matches: ${job.sample.join(" ")}${job.matched > job.sample.length ? " …" : ""}`);
  if (job.state === "running") print(`follow it: little bulk status ${job.jobId}`);
  return 0;
}
