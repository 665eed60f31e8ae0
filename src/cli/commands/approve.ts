import type { Approval, LittleClient } from "../../client/index.ts";
import { clientFrom } from "../api-client.ts";
import { nonEmptyFlag, parseCommand } from "../args.ts";
import { CliInputError } from "../cli-error.ts";
import { colorEnabled, painter, print, table } from "../output.ts";
import { APPROVALS_USAGE, APPROVE_USAGE } from "../usage.ts";

/** `little approvals <run-id>`: the run's tool calls held for approval, with their arguments' hash. */
export async function approvalsCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommand("approvals", args, {}, { min: 1, max: 1, names: "the run id" });
  if (values.help) {
    print(`usage: little ${APPROVALS_USAGE}`);
    return 0;
  }
  const approvals = await listApprovals(clientFrom(values), positionals[0] as string);
  if (values.json) print(JSON.stringify({ approvals }, null, 2));
  else
    print(
      table(
        ["APPROVAL", "STATUS", "TOOL", "STEP", "ARGS"],
        approvals.map((a) => [a.approvalId, a.status, a.tool, a.stepPath, JSON.stringify(a.args)]),
        painter(colorEnabled()),
      ),
    );
  return 0;
}

/**
 * `little approve <run-id> <approval-id> [--deny] [--reason r]`: prints the call's arguments and
 * decides on exactly those: the decision carries the hash of the arguments shown, so a call whose
 * arguments differ is refused by the server.
 */
export async function approveCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommand(
    "approve",
    args,
    { deny: { type: "boolean" }, reason: { type: "string" } },
    { min: 2, max: 2, names: "the run id and the approval id" },
  );
  if (values.help) {
    print(`usage: little ${APPROVE_USAGE}`);
    return 0;
  }
  const [runId, approvalId] = positionals as [string, string];
  const client = clientFrom(values);
  const approval = (await listApprovals(client, runId)).find((a) => a.approvalId === approvalId);
  if (!approval) throw new CliInputError("not_found", `little approve: run ${runId} has no approval "${approvalId}"`);
  const reason = nonEmptyFlag("approve", "reason", values.reason);
  if (!values.json) print(`${approval.tool} ${JSON.stringify(approval.args)}\nargs hash ${approval.argsHash}`);
  const body = await client.decideApproval(runId, approvalId, {
    decision: values.deny ? "deny" : "approve",
    argsHash: approval.argsHash,
    ...(reason ? { reason } : {}),
  });
  if (values.json) print(JSON.stringify(body, null, 2));
  else print(`${body.approval.status}${body.created ? "" : " (already)"}`);
  return 0;
}

async function listApprovals(client: LittleClient, runId: string): Promise<Approval[]> {
  return (await client.listApprovals(runId)).approvals;
}
