import { clientFrom } from "../api-client.ts";
import { parseCommand } from "../args.ts";
import { print } from "../output.ts";
import { DELETE_USAGE } from "../usage.ts";

/**
 * `little delete <run-id> [--cancel]`: deletes a run and all its data (docs/runs.md, "Retention and
 * deletion"); `--cancel` cancels a run that has not ended first. Needs the `runs:delete` scope.
 */
export async function deleteCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommand("delete", args, { cancel: { type: "boolean" } }, { min: 1, max: 1, names: "the run id" });
  if (values.help) {
    print(`usage: little ${DELETE_USAGE}`);
    return 0;
  }
  const body = await clientFrom(values).deleteRun(positionals[0] as string, { cancel: values.cancel === true });
  if (values.json) print(JSON.stringify(body, null, 2));
  else print(`deleted ${body.deleted.runId} (${body.deleted.workflowId}) at ${body.deleted.deletedAt}`);
  return 0;
}
