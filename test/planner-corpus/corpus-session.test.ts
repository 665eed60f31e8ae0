import { afterEach, describe, expect, it } from "vitest";
import { overrideWiring } from "../../src/wiring.ts";
import { CORPUS } from "./cases.ts";
import { corpusTurns } from "./corpus-transcripts.ts";
import { type BashResult, findingsFromCheck } from "./replay-model.ts";
import { runTranscript } from "./run-transcript.ts";
import { expectedOf, unmet } from "./submit-direct.ts";
import { shippedTask } from "./tasks.ts";

afterEach(() => overrideWiring({}));

/**
 * The representative subset (`via` set): each transcript replayed by a scripted model through the
 * real planner session of a real run object, inside workerd with the isolate sandbox, so bash
 * and `lwir-check` really run and `submit_lwir` answers as it does for a real model.
 */
const DRIVEN = CORPUS.filter((c) => c.via !== undefined);

describe("corpus transcripts through the real planner session", () => {
  it("covers every shipped example and both ways of meeting the findings", () => {
    expect(DRIVEN.length).toBeGreaterThanOrEqual(12);
    expect(new Set(DRIVEN.map((c) => c.workflow)).size).toBe(4);
    expect(new Set(DRIVEN.map((c) => c.via))).toEqual(new Set(["submit", "lwir-check"]));
  });

  it.each(DRIVEN.map((c) => [c.id, c.via, c] as const))("%s (via %s)", async (_id, _via, c) => {
    const t = await shippedTask(c.workflow);
    const run = await runTranscript(c.workflow, t.input, corpusTurns(c, t));
    const expected = expectedOf(c, t);
    const budget = t.task.submissionsAllowed;
    if (c.via === "submit") {
      const first = run.submissions[0];
      expect(first?.accepted).toBe(c.firstAccepted === true);
      expect(unmet(expected, first?.findings ?? []), JSON.stringify(first?.findings, null, 2)).toEqual([]);
      expect(run.submissions.length).toBe(1 + (c.firstAccepted ? 0 : (c.repairs?.length ?? 0)));
      expect(run.submissions.length).toBeLessThanOrEqual(budget);
      if (!c.firstAccepted) expect(first?.remainingRevisions).toBe(budget - 1);
    } else {
      // The first draft never reaches submit_lwir: lwir-check showed its findings in bash (exit 1).
      const firstCheck = run.calls.filter((x) => x.tool === "bash")[1]?.result as BashResult;
      expect(firstCheck.exitCode).toBe(1);
      expect(unmet(expected, findingsFromCheck(firstCheck.stdout)), firstCheck.stdout).toEqual([]);
      const lastCheck = run.calls.filter((x) => x.tool === "bash").at(-1)?.result as BashResult;
      expect(lastCheck.stdout).toContain("OK: submit_lwir would accept this draft.");
      expect(run.submissions).toHaveLength(1);
    }
    expect(run.submissions.at(-1)?.accepted).toBe(true);
    const registered = run.events.find((e) => e.type === "WorkflowVersionRegistered");
    expect(registered?.payload).toMatchObject({ versionId: expect.stringMatching(/^wfver_[0-9a-f]{16}$/) });
    await (await import("../support/drive.ts")).runStub(run.runId).cancel("corpus: planning checked");
  });
});
