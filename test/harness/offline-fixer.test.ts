import { runInDurableObject } from "cloudflare:test";
import type { LanguageModelV4, LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { afterEach, describe, expect, it } from "vitest";
import { EnvModelResolver } from "../../src/adapters/models/env-model-resolver.ts";
import { INVOICE_TOTALS_SOURCE } from "../../src/examples/billing-invoice-totals.ts";
import { digestText } from "../../src/json/digest.ts";
import type { ModelResolver } from "../../src/ports/model-resolver.ts";
import type { RunEvent } from "../../src/ports/run-events.ts";
import { overrideWiring } from "../../src/wiring.ts";
import { driveToEnd, rawRunStub, runStub } from "../support/drive.ts";

const INPUT = {
  invoiceId: "INV-7",
  lineItems: [
    { description: "Seats", quantity: 3, unitCents: 1200 },
    { description: "Support", quantity: 1, unitCents: 5000 },
  ],
  taxRate: 0.2,
};
const TOTALS = { invoiceId: "INV-7", subtotalCents: 8600, taxCents: 1720, totalCents: 10320 };

afterEach(() => overrideWiring({}));

/** The offline resolver, counting every model call by role (a replay must make none). */
function countingOffline(): { resolver: ModelResolver; calls: string[] } {
  const offline = new EnvModelResolver({ mode: "offline", secrets: {} });
  const calls: string[] = [];
  const resolver: ModelResolver = {
    resolve(request) {
      const resolved = offline.resolve(request);
      const inner = resolved.model as LanguageModelV4;
      const counted: LanguageModelV4 = Object.assign(Object.create(inner), {
        doGenerate: (options: LanguageModelV4CallOptions) => {
          calls.push(request.role);
          return inner.doGenerate(options);
        },
      });
      return { ...resolved, model: counted };
    },
  };
  return { resolver, calls };
}

async function start(runId: string) {
  return runStub(runId).start({ runId, workflowId: "billing.invoice-totals", input: INPUT, trigger: { kind: "http" } });
}

async function eventsOf(runId: string): Promise<RunEvent[]> {
  return runStub(runId).events({ limit: 10_000 });
}

function payload(e: RunEvent | undefined): Record<string, unknown> {
  return (e?.payload ?? {}) as Record<string, unknown>;
}

/** Copies a prefix of one run's log into a new run object, so its alarm resumes (replays) from it. */
async function seedLog(runId: string, events: readonly RunEvent[]): Promise<void> {
  await runInDurableObject(rawRunStub(runId), async (_instance, state) => {
    state.storage.sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    state.storage.sql.exec("INSERT INTO meta (key, value) VALUES ('runId', ?)", runId);
    state.storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, type TEXT NOT NULL, at INTEGER NOT NULL, payload TEXT NOT NULL)",
    );
    for (const e of events)
      state.storage.sql.exec(
        "INSERT INTO events (seq, type, at, payload) VALUES (?, ?, ?, ?)",
        e.seq,
        e.type,
        e.at,
        JSON.stringify(e.payload),
      );
    await state.storage.setAlarm(Date.now());
  });
}

describe("billing.invoice-totals on the offline model, in its run object", () => {
  it("plans from the skill's recipe, fails the first code.run attempt, repairs it with a fixer session and succeeds", async () => {
    const { resolver, calls } = countingOffline();
    overrideWiring({ models: resolver });
    await start("run_invoice_fix");
    const view = await driveToEnd("run_invoice_fix");
    expect(view.status).toBe("completed");
    expect(view.output).toEqual(TOTALS);
    const events = await eventsOf("run_invoice_fix");
    const after = (e: RunEvent | undefined) => (x: RunEvent) => events.indexOf(x) > events.indexOf(e as RunEvent);

    // The planner read the skill in bash, drafted, and submitted the recipe's code.run step.
    const firstBash = events.find((e) => e.type === "harness.tool_call.started" && payload(e).tool === "bash");
    expect(payload(firstBash).args).toEqual({ command: "cat .agents/skills/invoice-totals-plan/SKILL.md" });
    const plan = events.find((e) => e.type === "harness.session.completed" && payload(e).role === "planner");
    const step = (
      payload(plan).output as { lwir: { steps: { uses: string; with: { files: Record<string, { content: string; sha256: string }> } }[] } }
    ).lwir.steps[0];
    expect(step?.uses).toBe("code.run");
    expect(step?.with.files["totals.ts"]).toEqual({ content: INVOICE_TOTALS_SOURCE, sha256: digestText(INVOICE_TOTALS_SOURCE) });
    // Its draft call hashed the file with sha256sum in bash: the same digest the LWIR carries.
    const drafted = events.filter((e) => e.type === "harness.tool_call.succeeded" && payload(e).tool === "bash")[1];
    expect((payload(drafted).result as { stdout: string }).stdout).toContain(
      `${digestText(INVOICE_TOTALS_SOURCE).slice("sha256:".length)}  drafts/files/totals.ts`,
    );

    // A fixer session started for the step, tested its repair in bash, then called submit_fix.
    const fixerStarted = events.find((e) => e.type === "harness.session.started" && payload(e).role === "fixer");
    expect(fixerStarted?.payload).toMatchObject({ kind: "fix_step", stepPath: "c1/totals" });
    const fixerTools = events.filter((e) => e.type === "harness.tool_call.succeeded" && after(fixerStarted)(e));
    expect(fixerTools.map((e) => payload(e).tool)).toEqual(["bash", "submit_fix"]);
    expect(payload(fixerTools[0]).result).toMatchObject({ exitCode: 0, stdout: expect.stringContaining(`${JSON.stringify(TOTALS)}\n`) });

    // It recorded the failed first attempt (the shipped code reads input.lineitems) and the digests.
    const completed = events.find((e) => e.type === "harness.session.completed" && payload(e).role === "fixer");
    const fixed = INVOICE_TOTALS_SOURCE.replace("input.lineitems", "input.lineItems");
    expect(completed?.payload).toMatchObject({
      role: "fixer",
      fixedSource: fixed,
      output: {
        entrypointReplaced: true,
        entrypoint: "totals.ts",
        failure: { code: "code_threw", message: expect.stringContaining("Cannot read properties of undefined (reading 'reduce')") },
        sourceSha256: digestText(INVOICE_TOTALS_SOURCE),
        fixedSha256: digestText(fixed),
      },
    });

    // The step succeeded after the fix, in the same attempt; no step failed.
    const succeeded = events.find((e) => e.type === "StepSucceeded" && payload(e).stepPath === "c1/totals");
    expect(events.indexOf(succeeded as RunEvent)).toBeGreaterThan(events.indexOf(completed as RunEvent));
    expect(events.some((e) => e.type === "StepFailed")).toBe(false);
    expect(calls.filter((r) => r === "fixer")).toHaveLength(2);
    expect(calls.filter((r) => r === "planner")).toHaveLength(3);

    // Replay: a new run object resumed from the log cut right after the fix was recorded runs the
    // recorded fix, calls no model, and ends with the same events.
    const cut = events.indexOf(completed as RunEvent) + 1;
    const replay = countingOffline();
    overrideWiring({ models: replay.resolver });
    await seedLog("run_invoice_replay", events.slice(0, cut));
    const again = await driveToEnd("run_invoice_replay");
    expect(again.status).toBe("completed");
    expect(again.output).toEqual(TOTALS);
    expect(replay.calls).toEqual([]);
    const replayed = await eventsOf("run_invoice_replay");
    expect(replayed.map((e) => e.type)).toEqual(events.map((e) => e.type));
  });
});
