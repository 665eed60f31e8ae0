import { isEndedStatus, type ListRunsQuery, RUN_STATUSES, WAIT_REASONS } from "../../client/index.ts";
import { clientFrom } from "../api-client.ts";
import { integerFlag, nonEmptyFlag, parseCommand } from "../args.ts";
import { CliInputError } from "../cli-error.ts";
import { colorEnabled, formatDuration, isoTime, painter, print, statusFormat, table } from "../output.ts";
import { RUNS_USAGE } from "../usage.ts";

/** `little runs`: one page of runs, newest first, as a table; the next page's cursor as a hint. */
export async function runsCommand(args: readonly string[]): Promise<number> {
  const { values } = parseCommand(
    "runs",
    args,
    {
      workflow: { type: "string" },
      status: { type: "string" },
      "wait-reason": { type: "string" },
      tag: { type: "string", multiple: true },
      limit: { type: "string" },
      cursor: { type: "string" },
    },
    { min: 0, max: 0, names: "" },
  );
  if (values.help) {
    print(`usage: little ${RUNS_USAGE}`);
    return 0;
  }
  const status = values.status;
  if (status !== undefined && !(RUN_STATUSES as readonly string[]).includes(status)) {
    throw new CliInputError("usage", `little runs: --status must be one of ${RUN_STATUSES.join(", ")}, not "${status}"`);
  }
  const waitReason = values["wait-reason"];
  if (waitReason !== undefined && !(WAIT_REASONS as readonly string[]).includes(waitReason)) {
    throw new CliInputError("usage", `little runs: --wait-reason must be one of ${WAIT_REASONS.join(", ")}, not "${waitReason}"`);
  }
  const limit = integerFlag("runs", "limit", values.limit, 1);
  const workflow = nonEmptyFlag("runs", "workflow", values.workflow);
  const cursor = nonEmptyFlag("runs", "cursor", values.cursor);
  const body = await clientFrom(values).listRuns({
    workflow,
    status: status as ListRunsQuery["status"],
    waitReason: waitReason as ListRunsQuery["waitReason"],
    ...(values.tag?.length ? { tag: values.tag } : {}),
    limit,
    cursor,
  });
  if (values.json) {
    print(JSON.stringify(body, null, 2));
    return 0;
  }
  const paint = painter(colorEnabled());
  const runs = Array.isArray(body.runs) ? body.runs : [];
  if (runs.length === 0) print(cursor ? "no more runs" : "no runs");
  else {
    const now = Date.now();
    const rows = runs.map((run) => {
      const ended = isEndedStatus(run.status);
      const duration = ended ? formatDuration(run.updatedAt - run.createdAt) : `${formatDuration(now - run.createdAt)}+`;
      return [
        run.runId,
        // A child run (a workflow.run step started it) says so; `little status` names its parent.
        run.triggerKind === "child" ? `${run.workflowId} (child)` : run.workflowId,
        // A waiting run says for what: `waiting (approval)`; a queued one its key and place: `waiting (concurrency c-42 #3)`.
        {
          text: run.waitReason ? `${run.status} (${run.waitReason}${queuePlace(run.queue)})` : run.status,
          format: statusFormat(run.status),
        },
        run.versionId ?? "-",
        isoTime(run.createdAt),
        duration,
      ];
    });
    print(table(["RUN ID", "WORKFLOW", "STATUS", "VERSION", "STARTED", "DURATION"], rows, paint));
  }
  if (body.nextCursor) {
    const filters = [
      workflow && `--workflow ${quote(workflow)}`,
      status && `--status ${status}`,
      waitReason && `--wait-reason ${waitReason}`,
      limit && `--limit ${limit}`,
    ]
      .filter(Boolean)
      .join(" ");
    print(paint("dim", `\nmore runs: little runs ${filters ? `${filters} ` : ""}--cursor ${quote(body.nextCursor)}`));
  }
  return 0;
}

/** Quotes a value for a shell command line when it needs it. */
function quote(value: string): string {
  return /^[\w.:@%+=,/-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}

/** A queued run's key and position, for the status column. */
function queuePlace(queue: { key: string; position: number | null } | undefined): string {
  return queue ? ` ${queue.key} #${queue.position ?? "?"}` : "";
}
