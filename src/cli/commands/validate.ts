import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { snapshotDefinition } from "../../identity/definition-snapshot.ts";
import { checkLwir } from "../../lwir/check-lwir.ts";
import { validateLwir } from "../../lwir/validate-lwir.ts";
import type { WorkflowDefinition } from "../../sdk/define-workflow.ts";
import { WorkflowCallCycleError } from "../../sdk/errors/workflow-call-cycle-error.ts";
import { hasNoErrors } from "../../sdk/finding.ts";
import type { ToolDefinition } from "../../sdk/tool.ts";
import { clientFrom } from "../api-client.ts";
import { parseCommand } from "../args.ts";
import { CliInputError } from "../cli-error.ts";
import { readJsonDocument } from "../read-document.ts";

/**
 * `little validate <lwir.json|-> [--workflow <id> [--entry <module>]… | [--url <url>]]`: prints
 * `{ valid, findings }`; exit 0 when valid, 1 when not. Structural alone; with `--workflow` also the
 * binding pass against that workflow, as `submit_lwir` and `POST /v1/lwir/validate` run it: from
 * the workflows and tools the `--entry` modules export, or else from a running Worker (`--url`,
 * `LITTLE_URL`, `.dev.vars`, http://localhost:8787).
 */
export async function validateCommand(args: readonly string[]): Promise<{ output: unknown; exitCode: 0 | 1 }> {
  const { values, positionals } = parseCommand(
    "validate",
    args,
    { workflow: { type: "string" }, entry: { type: "string", multiple: true } },
    { min: 1, max: 1, names: "a file (or - for stdin)" },
  );
  const entries = (values as { entry?: string[] }).entry ?? [];
  if (entries.length > 0 && values.workflow === undefined) {
    throw new CliInputError("usage", "little validate: --entry names where the workflow is; say which with --workflow <id>");
  }
  const { value } = await readJsonDocument(positionals[0] as string);
  const findings =
    values.workflow === undefined
      ? validateLwir(value).findings
      : entries.length > 0
        ? checkLwir(value, await capabilitiesFromEntries(values.workflow, entries))
        : (await clientFrom(values).validateLwir(value, { workflow: values.workflow })).findings;
  const valid = hasNoErrors(findings);
  return { output: { valid, findings }, exitCode: valid ? 0 : 1 };
}

/** Loads the entry modules (Node strips TypeScript) and snapshots the workflow against the tools they export, by export name. */
async function capabilitiesFromEntries(workflowId: string, entries: readonly string[]) {
  const workflows = new Map<string, WorkflowDefinition>();
  const tools: Record<string, ToolDefinition> = {};
  for (const entry of entries) {
    let module: Record<string, unknown>;
    try {
      module = (await import(pathToFileURL(resolve(entry)).href)) as Record<string, unknown>;
    } catch (error) {
      const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
      throw new CliInputError("entry_unloadable", `little validate: cannot load --entry ${entry}: ${reason}`);
    }
    for (const [name, exported] of Object.entries(module)) {
      if (isWorkflow(exported)) workflows.set(exported.id, exported);
      else if (isTool(exported)) tools[name] = exported;
    }
  }
  const workflow = workflows.get(workflowId);
  if (!workflow) {
    const found = [...workflows.keys()].join(", ") || "none";
    throw new CliInputError(
      "workflow_not_found",
      `little validate: no workflow "${workflowId}" in ${entries.join(", ")} (found: ${found})`,
    );
  }
  try {
    return await withCallees(workflow, workflows, tools);
  } catch (error) {
    throw new CliInputError("definition_invalid", `little validate: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A workflow's snapshot with its callees' (`workflows`), found among the same modules' exports. */
async function withCallees(
  workflow: WorkflowDefinition,
  workflows: ReadonlyMap<string, WorkflowDefinition>,
  tools: Record<string, ToolDefinition>,
  path: readonly string[] = [],
): Promise<Awaited<ReturnType<typeof snapshotDefinition>>> {
  if (path.includes(workflow.id)) throw new WorkflowCallCycleError([...path.slice(path.indexOf(workflow.id)), workflow.id]);
  const callees = await Promise.all(
    (workflow.workflows ?? []).flatMap((id) => {
      const callee = workflows.get(id);
      return callee ? [withCallees(callee, workflows, tools, [...path, workflow.id])] : [];
    }),
  );
  return snapshotDefinition(workflow, tools, undefined, undefined, callees);
}

function isWorkflow(value: unknown): value is WorkflowDefinition {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "little.workflow";
}

function isTool(value: unknown): value is ToolDefinition {
  const t = value as { execute?: unknown; inputSchema?: unknown } | null;
  return typeof t === "object" && t !== null && typeof t.execute === "function" && t.inputSchema !== undefined;
}
