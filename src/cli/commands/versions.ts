import type { WorkflowVersion } from "../../client/index.ts";
import { clientFrom, isRecord } from "../api-client.ts";
import { parseCommand } from "../args.ts";
import { colorEnabled, keyValues, painter, print, table } from "../output.ts";
import { VERSIONS_USAGE } from "../usage.ts";

/** `little versions <id>`: a registered workflow version, its compiler lock(s) and its LWIR steps. */
export async function versionsCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommand("versions", args, {}, { min: 1, max: 1, names: "the version id" });
  if (values.help) {
    print(`usage: little ${VERSIONS_USAGE}`);
    return 0;
  }
  const body = await clientFrom(values).getVersion(positionals[0] as string);
  if (values.json) {
    print(JSON.stringify(body, null, 2));
    return 0;
  }
  const paint = painter(colorEnabled());
  const version = isRecord(body.version) ? body.version : ({} as Partial<WorkflowVersion["version"]>);
  const locks = Array.isArray(body.locks) ? body.locks : [];
  const lwir = isRecord(version.lwir) ? version.lwir : {};
  const metadata = isRecord(lwir.metadata) ? lwir.metadata : {};
  const steps = (Array.isArray(lwir.steps) ? lwir.steps : []).filter(isRecord);
  const name =
    typeof metadata.name === "string" ? `${metadata.name}${typeof metadata.version === "string" ? `@${metadata.version}` : ""}` : undefined;
  print(
    keyValues(
      [
        ["id", String(version.id ?? "-")],
        ["hash", String(version.hash ?? "-")],
        ["canonicalizer", String(version.canonicalizer ?? "-")],
        ["workflow", name],
      ],
      paint,
    ),
  );
  print(`\n${paint("bold", `locks (${locks.length})`)}`);
  if (locks.length > 0) {
    print(
      indent(
        table(
          ["DEFINITION HASH", "LOCK HASH"],
          locks.map((lock) => [String(lock.definitionHash ?? "-"), String(lock.lockHash ?? "-")]),
          paint,
        ),
      ),
    );
  }
  print(`\n${paint("bold", `steps (${steps.length})`)}`);
  if (steps.length > 0) {
    const rows = steps.map((step) => [
      String(step.id ?? "-"),
      String(step.uses ?? "-"),
      Array.isArray(step.needs) && step.needs.length > 0 ? step.needs.map(String).join(", ") : "-",
    ]);
    print(indent(table(["ID", "USES", "NEEDS"], rows, paint)));
  }
  return 0;
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
}
