import { clientFrom } from "../api-client.ts";
import { nonEmptyFlag, parseCommand } from "../args.ts";
import { CliInputError } from "../cli-error.ts";
import { colorEnabled, painter, print, table } from "../output.ts";
import { SECTIONS_USAGE, SUPERSEDE_USAGE } from "../usage.ts";

/**
 * `little sections <workflow> [--stale]`: a section workflow's unfinished runs, newest first, each
 * with the definition hash it locked and whether that is stale after a redeploy.
 */
export async function sectionsCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommand(
    "sections",
    args,
    { stale: { type: "boolean" } },
    { min: 1, max: 1, names: "the workflow id" },
  );
  if (values.help) {
    print(`usage: little ${SECTIONS_USAGE}`);
    return 0;
  }
  // Every page: the API pages at 200 sections; the command lists them all.
  const client = clientFrom(values);
  const first = await client.listSections(positionals[0] as string, values.stale ? { stale: true } : {});
  const body = { ...first, sections: [...first.sections] };
  for (let cursor = first.nextCursor; cursor; ) {
    const page = await client.listSections(positionals[0] as string, { ...(values.stale ? { stale: true } : {}), cursor });
    body.sections.push(...page.sections);
    cursor = page.nextCursor;
  }
  body.nextCursor = null;
  if (values.json) {
    print(JSON.stringify(body, null, 2));
    return 0;
  }
  const paint = painter(colorEnabled());
  print(`live definition ${body.liveDefinitionHash}`);
  if (body.sections.length === 0) {
    print(values.stale ? "no stale sections" : "no unfinished sections");
    return 0;
  }
  const rows = body.sections.map((s) => [
    s.runId,
    s.status,
    s.stale ? { text: "stale", format: "red" as const } : "live",
    s.definitionHash ?? "-",
    new Date(s.createdAt).toISOString(),
  ]);
  print(table(["RUN", "STATUS", "DEFINITION", "HASH", "STARTED"], rows, paint));
  if (body.sections.some((s) => s.stale)) print("supersede a stale one: little supersede <run-id> --into <new section run-id>");
  return 0;
}

/** `little supersede <run-id> --into <run-id>`: ends a waiting section and moves its pending occurrences. */
export async function supersedeCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommand("supersede", args, { into: { type: "string" } }, { min: 1, max: 1, names: "the run id" });
  if (values.help) {
    print(`usage: little ${SUPERSEDE_USAGE}`);
    return 0;
  }
  const into = nonEmptyFlag("supersede", "into", values.into);
  if (into === undefined)
    throw new CliInputError("usage", "little supersede: --into <run-id> (a section under the live definition) is required");
  const body = await clientFrom(values).supersede(positionals[0] as string, into);
  if (values.json) print(JSON.stringify(body, null, 2));
  else {
    print(`${body.run.runId} ${body.run.status} (section_superseded), superseded by ${body.into}`);
    for (const a of body.adopted) print(`  ${a.from} → ${body.into} ${a.occurrenceId}${a.created ? "" : " (already adopted)"}`);
    if (body.adopted.length === 0) print("  no pending occurrences to adopt");
  }
  return 0;
}
