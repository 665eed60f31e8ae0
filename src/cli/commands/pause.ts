import { clientFrom } from "../api-client.ts";
import { parseCommand } from "../args.ts";
import { colorEnabled, painter, print } from "../output.ts";
import { renderRun } from "../render-run.ts";
import { PAUSE_USAGE, RESUME_USAGE } from "../usage.ts";

/** `little pause <run-id>` / `little resume <run-id>`: pauses or resumes a run and prints it as it now is. */
async function lifecycle(action: "pause" | "resume", args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommand(action, args, {}, { min: 1, max: 1, names: "the run id" });
  if (values.help) {
    print(`usage: little ${action === "pause" ? PAUSE_USAGE : RESUME_USAGE}`);
    return 0;
  }
  const client = clientFrom(values);
  const runId = positionals[0] as string;
  const body = action === "pause" ? await client.pauseRun(runId) : await client.resumeRun(runId);
  if (values.json) print(JSON.stringify(body, null, 2));
  else print(renderRun(body.run, undefined, painter(colorEnabled())));
  return 0;
}

export const pauseCommand = (args: readonly string[]) => lifecycle("pause", args);
export const resumeCommand = (args: readonly string[]) => lifecycle("resume", args);
