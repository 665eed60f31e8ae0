import { clientFrom } from "../api-client.ts";
import { parseCommand } from "../args.ts";
import { colorEnabled, painter, print } from "../output.ts";
import { renderRun } from "../render-run.ts";
import { CANCEL_USAGE } from "../usage.ts";

/** `little cancel <run-id>`: cancels a run and prints it as it now is (a run that already ended is unchanged). */
export async function cancelCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommand("cancel", args, {}, { min: 1, max: 1, names: "the run id" });
  if (values.help) {
    print(`usage: little ${CANCEL_USAGE}`);
    return 0;
  }
  const body = await clientFrom(values).cancel(positionals[0] as string);
  if (values.json) print(JSON.stringify(body, null, 2));
  else print(renderRun(body.run, undefined, painter(colorEnabled())));
  return 0;
}
