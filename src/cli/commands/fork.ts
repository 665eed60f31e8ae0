import type { ForkPlan, RunComparison } from "../../client/api-types.ts";
import { clientFrom } from "../api-client.ts";
import { integerFlag, parseCommand } from "../args.ts";
import { CliInputError } from "../cli-error.ts";
import { colorEnabled, formatDuration, type Paint, painter, print, shortJson, table } from "../output.ts";
import { readInput } from "../read-input.ts";
import { renderRun } from "../render-run.ts";
import { COMPARE_USAGE, FORK_USAGE, RESTART_USAGE } from "../usage.ts";

/** `little restart <run-id> [--from <step>]`: a new run of the same version from that step (default the first failed one). */
export async function restartCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommand(
    "restart",
    args,
    { from: { type: "string" }, "idempotency-key": { type: "string" }, wait: { type: "string" } },
    { min: 1, max: 1, names: "the run id" },
  );
  if (values.help) return usage(RESTART_USAGE);
  const wait = integerFlag("restart", "wait", values.wait, 0, 60);
  const body = await clientFrom(values).restartRun(positionals[0] as string, {
    ...(values.from !== undefined ? { fromStep: values.from } : {}),
    ...(values["idempotency-key"] !== undefined ? { idempotencyKey: values["idempotency-key"] } : {}),
    ...(wait !== undefined ? { wait } : {}),
  });
  const paint = painter(colorEnabled());
  if (values.json) print(JSON.stringify(body, null, 2));
  else print(`${renderRun(body.run, body.links, paint)}\n\n${renderPlan(body.plan, paint)}`);
  return 0;
}

/** `little fork <run-id> [--input @f.json] [--model slot=provider:model]… [--step id=@with.json]… [--dry-run]`. */
export async function forkCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommand(
    "fork",
    args,
    {
      input: { type: "string" },
      model: { type: "string", multiple: true },
      step: { type: "string", multiple: true },
      lwir: { type: "string" },
      "dry-run": { type: "boolean" },
      "idempotency-key": { type: "string" },
      wait: { type: "string" },
    },
    { min: 1, max: 1, names: "the run id" },
  );
  if (values.help) return usage(FORK_USAGE);
  const models = pairs("--model", values.model as unknown as string[] | undefined);
  const steps: Record<string, { with: Record<string, unknown> }> = {};
  for (const [id, raw] of Object.entries(pairs("--step", values.step as unknown as string[] | undefined))) {
    const edit = await readInput("fork", raw);
    if (typeof edit !== "object" || edit === null || Array.isArray(edit))
      throw new CliInputError("usage", `little fork: --step ${id}=… must be a JSON object of the step's with fields`);
    steps[id] = { with: edit as Record<string, unknown> };
  }
  const wait = integerFlag("fork", "wait", values.wait, 0, 60);
  const edits = {
    ...(values.input !== undefined ? { input: await readInput("fork", values.input) } : {}),
    ...(Object.keys(models).length > 0 ? { models } : {}),
    ...(Object.keys(steps).length > 0 ? { steps } : {}),
    ...(values.lwir !== undefined ? { lwir: await readInput("fork", values.lwir) } : {}),
  };
  const body = await clientFrom(values).forkRun(positionals[0] as string, edits, {
    ...(values["dry-run"] ? { dryRun: true } : {}),
    ...(values["idempotency-key"] !== undefined ? { idempotencyKey: values["idempotency-key"] } : {}),
    ...(wait !== undefined ? { wait } : {}),
  });
  const paint = painter(colorEnabled());
  if (values.json) print(JSON.stringify(body, null, 2));
  else
    print(
      `${body.run && body.links ? `${renderRun(body.run, body.links, paint)}\n\n` : "dry run: nothing started\n\n"}${renderPlan(body.plan, paint)}`,
    );
  return 0;
}

/** `little compare <a> <b>`: the two runs step by step. */
export async function compareCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommand("compare", args, {}, { min: 2, max: 2, names: "two run ids" });
  if (values.help) return usage(COMPARE_USAGE);
  const body = await clientFrom(values).compareRuns(positionals[0] as string, positionals[1] as string);
  if (values.json) print(JSON.stringify(body, null, 2));
  else print(renderComparison(body, painter(colorEnabled())));
  return 0;
}

function usage(text: string): number {
  print(`usage: little ${text}`);
  return 0;
}

/** `key=value` flags into a record; a flag without `=` is a usage error. */
function pairs(flag: string, raw: readonly string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of raw ?? []) {
    const at = item.indexOf("=");
    if (at <= 0) throw new CliInputError("usage", `little fork: ${flag} takes key=value, not "${item}"`);
    out[item.slice(0, at)] = item.slice(at + 1);
  }
  return out;
}

function renderPlan(plan: ForkPlan, paint: Paint): string {
  const rows = plan.steps.map((s) => [
    s.stepId,
    s.uses,
    s.action === "reuse"
      ? { text: `reuse (seq ${s.sourceSeq})`, format: "green" as const }
      : { text: `re-run (${s.reason})`, format: "yellow" as const },
    String(s.sourceUsage.totalTokens),
  ]);
  const effects =
    plan.sideEffects.length > 0 ? `\nside effects again: ${plan.sideEffects.map((e) => `${e.stepId} (${e.tool})`).join(", ")}` : "";
  const cost = plan.estimate.costUsd === null ? "unpriced" : `$${plan.estimate.costUsd.toFixed(4)}`;
  return `${table(["step", "kind", "plan", "source tokens"], rows, paint)}\nestimate: ${plan.estimate.totalTokens} tokens, ${cost}${effects}`;
}

function renderComparison(c: RunComparison, paint: Paint): string {
  const side = (s: RunComparison["steps"][number]["a"]) =>
    `${s.reused ? "reused" : s.status}${s.durationMs !== null ? ` ${formatDuration(s.durationMs)}` : ""} ${s.usage.totalTokens}t`;
  const rows = c.steps.map((s) => [
    s.stepId,
    side(s.a),
    side(s.b),
    s.changed
      ? { text: s.diff.map((d) => `${d.path}: ${shortJson(d.a, 30)} → ${shortJson(d.b, 30)}`).join("; "), format: "yellow" as const }
      : "same",
  ]);
  return `${c.a.runId} (${c.a.status}) vs ${c.b.runId} (${c.b.status})\n${table(["step", "a", "b", "output"], rows, paint)}`;
}
