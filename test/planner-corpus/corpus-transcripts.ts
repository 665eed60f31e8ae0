import type { CorpusCase } from "./cases.ts";
import { type Call, lastFindings, type Turn, writeAndCheck } from "./replay-model.ts";
import { draftObject } from "./submit-direct.ts";
import type { ShippedTask } from "./tasks.ts";

/** The model first looks at what it must fill in: the slots, the tools and the requested output. */
export const READ_TASK: Call = {
  tool: "bash",
  command:
    "jq -c '{slots: [.workflowSnapshot.modelSlots[].id], tools: [.workflowSnapshot.tools[].id], requestedOutput}' /mnt/task/plan-task.json",
};

/**
 * A corpus case as the turns a model plays in the real planner session. `via: "submit"`: read the
 * task, submit the first draft, then submit each repair made from the findings the last
 * `submit_lwir` answered. `via: "lwir-check"`: write each draft in bash and check it with
 * `lwir-check`, repair from the printed findings, and submit only the checked draft.
 */
export function corpusTurns(c: CorpusCase, t: ShippedTask): Turn[] {
  const repairs = c.repairs ?? [];
  // Each repair takes the draft before it; the drafts are rebuilt from the findings shown, so keep them in order.
  const drafts: unknown[] = [c.draft(t)];
  const next = (i: number, shown: Parameters<Turn>[0]) => {
    const repair = repairs[i] as NonNullable<CorpusCase["repairs"]>[number];
    drafts[i + 1] = repair(draftObject(drafts[i]), lastFindings(shown), t);
    return drafts[i + 1];
  };
  if (c.via === "lwir-check") {
    return [
      () => READ_TASK,
      () => ({ tool: "bash", command: writeAndCheck(drafts[0]) }),
      ...repairs.map(
        (_, i): Turn =>
          (shown) => ({ tool: "bash", command: writeAndCheck(next(i, shown)) }),
      ),
      () => ({ tool: "submit_lwir", lwir: drafts[repairs.length] }),
    ];
  }
  return [
    () => READ_TASK,
    () => ({ tool: "submit_lwir", lwir: drafts[0] }),
    ...repairs.map(
      (_, i): Turn =>
        (shown) => ({ tool: "submit_lwir", lwir: next(i, shown) }),
    ),
  ];
}
