import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { digestText } from "../../../src/json/digest.ts";
import type { RunEvent } from "../../../src/ports/run-events.ts";
import { overrideWiring } from "../../../src/wiring.ts";
import { driveToEnd, rawRunStub, runStub } from "../../support/drive.ts";
import { resolverFor, scriptedPlanner, scriptedWorker } from "../../support/scripted-models.ts";
import { Rng, reportFigure, tortureSeeds, tortureTimeout } from "./support/random.ts";
import { liveSeed } from "./support/seed-lwir.ts";

// Item 7 of the reliability suite, at run time: a run with a model step and a code.run step is
// stopped after its first step; one character of what its log holds about the version (the
// pinned LWIR's code file, its sha256, a prompt, the registered version and lock hashes) is
// changed in the run object's SQLite; the resumed run must fail closed with a named cause, and
// no model call or code.run happens after the change.

afterEach(() => overrideWiring({}));

const INPUT = { ticketId: "T-5", transcript: "Login fails with a 500 since the upgrade." };
const CODE = "export function run({ input }) {\n  return { summary: input.summary + ' (checked)', severity: input.severity };\n}\n";

async function lwirWithCodeStep() {
  const seed = await liveSeed();
  const schema = seed.requestedOutput.schema;
  return {
    ...seed.lwir,
    permissions: { models: ["gpt-4o-mini"], tools: [], secrets: [], network: [] },
    steps: [
      {
        id: "draft",
        uses: "ai.generate",
        needs: [],
        with: { model: "gpt-4o-mini", prompt: "Summarize ticket {{ input.ticketId }}: {{ input.transcript }}" },
        output: { mode: "object", schema },
      },
      {
        id: "finish",
        uses: "code.run",
        needs: ["draft"],
        with: {
          entrypoint: "finish.js",
          files: { "finish.js": { content: CODE, sha256: digestText(CODE) } },
          sandbox: { network: "deny", env: "deny", fs: "deny" },
          input: { summary: "{{ steps.draft.output.summary }}", severity: "{{ steps.draft.output.severity }}" },
        },
        output: { mode: "object", schema },
      },
    ],
  };
}

type Payload = Record<string, unknown>;
type Target = { name: string; type: RunEvent["type"]; edit: (payload: Payload, rng: Rng) => void; alphabet: string };

const HEX = "0123456789abcdef";
const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(0x20 + i)).join("");

/** One character of `text` changed to another from `alphabet`. */
function changeOne(rng: Rng, text: string, alphabet: string, from = 0): string {
  const i = from + rng.int(text.length - from);
  let c = text[i] as string;
  while (c === text[i]) c = rng.pick([...alphabet]);
  return text.slice(0, i) + c + text.slice(i + 1);
}

type Lwir = { steps: { with: Record<string, unknown> }[] };
type CodeFile = { content: string; sha256: string };

/** The finish step's code file inside a RunRequested payload (edited in place). */
function fileOf(p: Payload): CodeFile {
  const files = (p.lwir as Lwir).steps[1]?.with.files as Record<string, CodeFile> | undefined;
  const file = files?.["finish.js"];
  if (!file) throw new Error("the pinned LWIR has no finish.js");
  return file;
}

const TARGETS: Target[] = [
  {
    name: "code file content",
    type: "RunRequested",
    alphabet: PRINTABLE,
    edit: (p, rng) => {
      const f = fileOf(p);
      f.content = changeOne(rng, f.content, PRINTABLE);
    },
  },
  {
    name: "code file sha256",
    type: "RunRequested",
    alphabet: HEX,
    edit: (p, rng) => {
      const f = fileOf(p);
      f.sha256 = changeOne(rng, f.sha256, HEX, "sha256:".length);
    },
  },
  {
    name: "code file rewritten with a matching sha256",
    type: "RunRequested",
    alphabet: PRINTABLE,
    edit: (p, rng) => {
      const f = fileOf(p);
      f.content = changeOne(rng, f.content, PRINTABLE);
      f.sha256 = digestText(f.content);
    },
  },
  {
    name: "prompt",
    type: "RunRequested",
    alphabet: PRINTABLE,
    edit: (p, rng) => {
      const w = (p.lwir as Lwir).steps[0]?.with as { prompt: string };
      w.prompt = changeOne(rng, w.prompt, PRINTABLE);
    },
  },
  {
    name: "registered version id",
    type: "WorkflowVersionRegistered",
    alphabet: HEX,
    edit: (p, rng) => {
      p.versionId = changeOne(rng, p.versionId as string, HEX, "wfver_".length);
    },
  },
  {
    name: "registered lock hash",
    type: "WorkflowVersionRegistered",
    alphabet: HEX,
    edit: (p, rng) => {
      p.lockHash = changeOne(rng, p.lockHash as string, HEX, "sha256:".length);
    },
  },
];

/** Changes the payload of the first event of `type` in the run object's own SQLite, then evicts it so the next alarm reads the change. */
async function tamper(runId: string, target: Target, rng: Rng): Promise<void> {
  await runInDurableObject(rawRunStub(runId), async (_instance, state) => {
    const row = state.storage.sql
      .exec<{ seq: number; payload: string }>("SELECT seq, payload FROM events WHERE type = ? ORDER BY seq LIMIT 1", target.type)
      .one();
    const payload = JSON.parse(row.payload) as Payload;
    target.edit(payload, rng);
    state.storage.sql.exec("UPDATE events SET payload = ? WHERE seq = ?", JSON.stringify(payload), row.seq);
  });
  await evictDurableObject(rawRunStub(runId));
}

/** What the planner's run holds about its version and manifest: the recorded LWIR and the session's manifest hash. */
const PLANNER_TARGETS: Target[] = [
  {
    name: "planner's recorded LWIR (prompt)",
    type: "harness.session.completed",
    alphabet: PRINTABLE,
    edit: (p, rng) => {
      const w = ((p.output as { lwir: Lwir }).lwir.steps[0]?.with ?? {}) as { prompt: string };
      w.prompt = changeOne(rng, w.prompt, PRINTABLE);
    },
  },
  {
    name: "planner session's manifest hash",
    type: "harness.session.started",
    alphabet: HEX,
    edit: (p, rng) => {
      p.manifestHash = changeOne(rng, p.manifestHash as string, HEX, "sha256:".length);
    },
  },
];

/** Starts planner runs, stops each after RunStarted, applies the target's change, resumes; tallies the outcome. */
async function plannerRunsTampered(target: Target, count: number, rng: Rng) {
  const causes = new Map<string, number>();
  const leaks: string[] = [];
  for (let i = 0; i < count; i++) {
    const runId = `run_tamper_plan_${i}_${crypto.randomUUID().slice(0, 6)}`;
    const planner = scriptedPlanner();
    const worker = scriptedWorker();
    let crashed = false;
    overrideWiring({
      models: resolverFor(planner, worker),
      afterAppend: (events, ctx) => {
        if (!crashed && events.some((e) => e.type === "RunStarted")) {
          crashed = true;
          ctx.abort();
        }
      },
    });
    await runStub(runId).start({ runId, workflowId: "support.summarize-ticket", input: INPUT, trigger: { kind: "http" } });
    await driveToEnd(runId, 1).catch(() => undefined);
    expect(crashed, `${target.name}: the run stopped after RunStarted`).toBe(true);
    const calls = { planner: planner.doGenerateCalls.length, worker: worker.doGenerateCalls.length };
    await tamper(runId, target, rng);
    overrideWiring({ models: resolverFor(planner, worker) });
    const view = await driveToEnd(runId);
    const cause = view.cause?.code ?? view.status;
    causes.set(cause, (causes.get(cause) ?? 0) + 1);
    const now = { planner: planner.doGenerateCalls.length, worker: worker.doGenerateCalls.length };
    if (view.status !== "failed" || JSON.stringify(now) !== JSON.stringify(calls))
      leaks.push(`${target.name}: ${view.status} ${cause}, calls ${JSON.stringify(calls)} → ${JSON.stringify(now)}`);
  }
  return { causes, leaks };
}

describe("a planner run's log changed between slices", () => {
  it(
    "a changed recorded LWIR fails the resumed run closed before the worker is called",
    async () => {
      const count = Math.max(2, Math.floor(tortureSeeds() / 4));
      const { causes, leaks } = await plannerRunsTampered(PLANNER_TARGETS[0] as Target, count, new Rng(0x5be0cd1a));
      reportFigure("tampering (planner run log)", {
        changes: count,
        refused: count - leaks.length,
        callsAfterDetection: leaks.length,
        causes: JSON.stringify(Object.fromEntries(causes)),
      });
      expect(leaks).toEqual([]);
      // A change that breaks the prompt's template no longer validates: the same misnamed cause as in
      // capability-drift.test.ts (a registered cycle that no longer compiles is reported as
      // planner_validation_exhausted although no planner ran). Either way it fails closed.
      expect([...causes.keys()].every((c) => c === "capability_drift" || c === "planner_validation_exhausted")).toBe(true);
    },
    tortureTimeout(3000),
  );

  // Was a bug (src/harness/run-session.ts): a *completed* session was replayed from its recorded
  // output without comparing the manifest hash in its `harness.session.started` event to the live
  // manifest, so a changed recorded manifest hash went unnoticed and the run completed.
  it("a changed manifest hash of a completed planner session is refused", async () => {
    const { leaks } = await plannerRunsTampered(PLANNER_TARGETS[1] as Target, 1, new Rng(0x5be0cd1b));
    expect(leaks).toEqual([]);
  });
});

describe("a run's log changed between slices", () => {
  it(
    "every single-character change to the version a run holds fails it closed, with no model call or code.run after",
    async () => {
      const lwir = await lwirWithCodeStep();
      const rng = new Rng(0x1f83d9ac);
      const perTarget = Math.max(2, Math.floor(tortureSeeds() / 5));
      const causes = new Map<string, number>();
      const leaks: string[] = [];
      let tried = 0;
      for (const target of TARGETS) {
        for (let i = 0; i < perTarget; i++) {
          const runId = `run_tamper_log_${tried}_${crypto.randomUUID().slice(0, 6)}`;
          const worker = scriptedWorker();
          let crashed = false;
          overrideWiring({
            models: resolverFor(scriptedPlanner(), worker),
            afterAppend: (events, ctx) => {
              if (!crashed && events.some((e) => e.type === "StepSucceeded")) {
                crashed = true;
                ctx.abort();
              }
            },
          });
          await runStub(runId).start({ runId, workflowId: "support.summarize-ticket", input: INPUT, trigger: { kind: "lwir" }, lwir });
          await driveToEnd(runId, 1).catch(() => undefined);
          expect(crashed, `${target.name}: the run stopped after its first step`).toBe(true);
          const callsBefore = worker.doGenerateCalls.length;
          const seqBefore = (await runStub(runId).events({ limit: 1000 })).length;
          await tamper(runId, target, rng);
          overrideWiring({ models: resolverFor(scriptedPlanner(), worker) });
          const view = await driveToEnd(runId);
          tried++;
          const cause = view.cause?.code ?? view.status;
          causes.set(cause, (causes.get(cause) ?? 0) + 1);
          const after = (await runStub(runId).events({ limit: 1000 })).slice(seqBefore);
          const ran = after.filter((e) => ["StepStarted", "StepSucceeded", "harness.model.called"].includes(e.type));
          if (view.status !== "failed" || worker.doGenerateCalls.length !== callsBefore || ran.length > 0)
            leaks.push(
              `${target.name}: ${view.status} ${cause}, ${worker.doGenerateCalls.length - callsBefore} model calls, ${ran.map((e) => e.type).join(",")}`,
            );
          expect(view.cause?.code ?? "", target.name).toMatch(/^(capability_drift|code_integrity|lwir_invalid)$/);
        }
      }
      reportFigure("tampering (run log)", {
        changes: tried,
        refused: tried - leaks.length,
        callsAfterDetection: leaks.length,
        causes: JSON.stringify(Object.fromEntries(causes)),
      });
      expect(leaks).toEqual([]);
    },
    tortureTimeout(3000),
  );
});
