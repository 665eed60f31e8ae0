import { isSettledStatus, type RunResponse } from "../../client/index.ts";
import { clientFrom } from "../api-client.ts";
import { nonEmptyFlag, parseCommand } from "../args.ts";
import { CliInputError } from "../cli-error.ts";
import { colorEnabled, painter, print } from "../output.ts";
import { readJsonDocument } from "../read-document.ts";
import { readInput } from "../read-input.ts";
import { renderRun } from "../render-run.ts";
import { startSpinner } from "../spinner.ts";
import { RUN_USAGE } from "../usage.ts";

/** `--wait` given without a number waits this long. */
const DEFAULT_WAIT_SECONDS = 60;
/** The longest wait the server holds a request for. */
const MAX_SERVER_WAIT_SECONDS = 60;
const POLL_INTERVAL_MS = 500;

/**
 * `little run <workflow> --input …`: starts a run. With `--wait [s]` the server holds the request
 * up to `s` seconds (at most 60); if the run has not ended when it answers, the run is polled every
 * 500 ms until it ends or `s` seconds have passed. Exit 1 when the run failed or was cancelled.
 */
export async function runCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommand(
    "run",
    normalizeWaitFlag(args),
    {
      input: { type: "string" },
      "run-id": { type: "string" },
      "idempotency-key": { type: "string" },
      wait: { type: "string" },
      lwir: { type: "string" },
      tag: { type: "string", multiple: true },
    },
    { min: 0, max: 1, names: "the workflow id" },
  );
  if (values.help) return usage();
  const lwirPath = values.lwir;
  if ((lwirPath === undefined) === (positionals[0] === undefined)) {
    throw new CliInputError("usage", "little run: name a workflow, or give --lwir <file.json> (not both)");
  }
  const lwir = lwirPath === undefined ? undefined : (await readJsonDocument(lwirPath)).value;
  const workflowId = positionals[0] ?? String((lwir as { metadata?: { name?: unknown } } | null)?.metadata?.name ?? "lwir");
  if (values.input === undefined)
    throw new CliInputError(
      "usage",
      'little run: --input is required (JSON, or @file, or @- for stdin); e.g. --input \'{"ticketId":"T-1"}\'',
    );
  const waitSeconds = parseWait(values.wait);
  const runId = nonEmptyFlag("run", "run-id", values["run-id"]);
  const idempotencyKey = nonEmptyFlag("run", "idempotency-key", values["idempotency-key"]);
  const input = await readInput("run", values.input);
  const client = clientFrom(values);
  const started = Date.now();
  const deadline = started + (waitSeconds ?? 0) * 1000;
  const spinner = waitSeconds !== undefined && waitSeconds > 0 ? startSpinner(`starting ${workflowId}`) : undefined;
  let response: RunResponse;
  try {
    const serverWait = waitSeconds === undefined ? undefined : Math.min(Math.floor(waitSeconds), MAX_SERVER_WAIT_SECONDS);
    const options = {
      ...(runId !== undefined ? { runId } : {}),
      ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
      ...(serverWait !== undefined ? { wait: serverWait } : {}),
      ...(values.tag?.length ? { tags: tagsOf(values.tag) } : {}),
      timeoutMs: ((serverWait ?? 0) + 30) * 1000,
    };
    response = lwir === undefined ? await client.startRun(workflowId, input, options) : await client.startLwirRun(lwir, input, options);
    while (
      waitSeconds !== undefined &&
      !isSettledStatus(response.run.status, response.run.waitReason) &&
      Date.now() + POLL_INTERVAL_MS <= deadline
    ) {
      spinner?.update(`run ${response.run.runId} ${response.run.status}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
      const polled = await client.getRun(response.run.runId);
      response = { ...response, run: polled.run };
    }
  } finally {
    spinner?.stop();
  }
  if (values.json) print(JSON.stringify(response, null, 2));
  else print(renderRun(response.run, response.links, painter(colorEnabled())));
  if (waitSeconds !== undefined && waitSeconds > 0 && !isSettledStatus(response.run.status, response.run.waitReason)) {
    const { runId, status, waitReason } = response.run;
    // A run waiting for a decision needs a person, not more patience: say where to decide.
    const next =
      waitReason === "approval" ? `it waits for an approval: little approvals ${runId}` : `follow it with: little events ${runId} --follow`;
    process.stderr.write(`little: run ${runId} is still ${status}${waitReason ? ` (${waitReason})` : ""} after ${waitSeconds}s; ${next}\n`);
  }
  return response.run.status === "failed" || response.run.status === "cancelled" ? 1 : 0;
}

function usage(): number {
  print(`usage: little ${RUN_USAGE}`);
  return 0;
}

/**
 * `--wait` takes an optional value, which parseArgs cannot express: a bare `--wait` becomes
 * `--wait=60`, and `--wait 30` (a number right after it) becomes `--wait=30`.
 */
export function normalizeWaitFlag(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--") {
      out.push(...args.slice(i));
      break;
    }
    if (arg !== "--wait") {
      out.push(arg);
      continue;
    }
    const next = args[i + 1];
    if (next !== undefined && /^\d+(\.\d+)?$/.test(next)) {
      out.push(`--wait=${next}`);
      i++;
    } else out.push(`--wait=${DEFAULT_WAIT_SECONDS}`);
  }
  return out;
}

function parseWait(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(value)) throw new CliInputError("usage", `little run: --wait takes a number of seconds, not "${value}"`);
  return Number(value);
}

/** `--tag key=value` (repeatable) as the start's tags; the server checks the rules (422 `run_tags_invalid`). */
function tagsOf(flags: readonly string[]): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const flag of flags) {
    const at = flag.indexOf("=");
    if (at <= 0) throw new CliInputError("usage", `little run: --tag takes key=value, not "${flag}"`);
    tags[flag.slice(0, at)] = flag.slice(at + 1);
  }
  return tags;
}
