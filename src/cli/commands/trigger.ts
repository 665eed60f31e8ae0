import { clientFrom } from "../api-client.ts";
import { integerFlag, nonEmptyFlag, parseCommand } from "../args.ts";
import { CliInputError } from "../cli-error.ts";
import { colorEnabled, painter, print } from "../output.ts";
import { readInput } from "../read-input.ts";
import { renderRun } from "../render-run.ts";
import { TRIGGER_USAGE } from "../usage.ts";

/**
 * `little trigger <run-id> --input …`: queues an occurrence of a section run. `--wait <s>` holds
 * the answer (at most 60 s) until the run has run it and waits again.
 */
export async function triggerCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommand(
    "trigger",
    args,
    { input: { type: "string" }, "idempotency-key": { type: "string" }, wait: { type: "string" } },
    { min: 1, max: 1, names: "the run id" },
  );
  if (values.help) {
    print(`usage: little ${TRIGGER_USAGE}`);
    return 0;
  }
  if (values.input === undefined) throw new CliInputError("usage", "little trigger: --input is required (JSON, or @file, or @- for stdin)");
  const input = await readInput("trigger", values.input);
  const wait = integerFlag("trigger", "wait", values.wait, 0, 60);
  const key = nonEmptyFlag("trigger", "idempotency-key", values["idempotency-key"]);
  const body = await clientFrom(values).trigger(positionals[0] as string, input, {
    ...(key ? { idempotencyKey: key } : {}),
    ...(wait !== undefined ? { wait } : {}),
    timeoutMs: ((wait ?? 0) + 30) * 1000,
  });
  if (values.json) print(JSON.stringify(body, null, 2));
  else {
    print(`occurrence ${body.occurrenceId}${body.created ? "" : " (seen before)"}`);
    print(renderRun(body.run, body.links, painter(colorEnabled())));
  }
  return 0;
}
