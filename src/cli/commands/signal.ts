import { clientFrom } from "../api-client.ts";
import { nonEmptyFlag, parseCommand } from "../args.ts";
import { print } from "../output.ts";
import { readInput } from "../read-input.ts";
import { SIGNAL_USAGE } from "../usage.ts";

/**
 * `little signal <run-id> <name> [--payload <json|@file>] [--id <id>]`: sends a signal to a run;
 * the server answers once it is durable in the run's log. Prints the signal and whether a wait has
 * taken it already (else it is buffered for the first wait that names it).
 */
export async function signalCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommand(
    "signal",
    args,
    { payload: { type: "string" }, id: { type: "string" } },
    { min: 2, max: 2, names: "the run id and the signal name" },
  );
  if (values.help) {
    print(`usage: little ${SIGNAL_USAGE}`);
    return 0;
  }
  const [runId, name] = positionals as [string, string];
  const payload = values.payload === undefined ? {} : await readInput("signal", values.payload);
  const id = nonEmptyFlag("signal", "id", values.id);
  const body = await clientFrom(values).sendSignal(runId, name, payload, id ? { id } : {});
  if (values.json) print(JSON.stringify(body, null, 2));
  else
    print(
      `${body.signal.name} ${body.signal.id}${body.created ? "" : " (sent before)"}: ${body.signal.consumed ? `taken by ${body.signal.consumedBy}` : "buffered"}`,
    );
  return 0;
}
