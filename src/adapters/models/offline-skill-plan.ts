import { digestText } from "../../json/digest.ts";
import { LWIR_KIND } from "../../lwir/types.ts";
import type { PlanTask } from "../../ports/planner-protocol.ts";

/**
 * The placeholders a plan recipe's LWIR draft may hold, and what fills each from the task. A
 * string value that is exactly a placeholder is replaced; so a recipe written for a workflow keeps
 * working when its schemas or model slot ids change. Every code.run file's `sha256` is recomputed
 * from its content (`sha256:<hex>` of the raw text), as the prompt tells a real planner to do with
 * `sha256sum`.
 */
export const PLAN_SLOTS: Readonly<Record<string, (task: PlanTask) => unknown>> = {
  "<workflow-id>": (task) => task.workflowSnapshot.id,
  "<input-schema>": (task) => task.inputSchema,
  "<output-schema>": (task) => task.outputSchema,
  "<requested-output>": (task) => task.requestedOutput,
  "<model-slot>": (task) => task.workflowSnapshot.modelSlots[0]?.id ?? "offline",
};

const SKILL_PATH = /\.agents\/skills\/([a-z0-9][a-z0-9-]*)\/SKILL\.md/g;
const JSON_FENCE = /```json[^\n]*\n([\s\S]*?)\n```/g;

/** The skills a prompt tells the planner to read, by name, in order and once each. */
export function skillsNamedIn(text: string): string[] {
  return [...new Set([...text.matchAll(SKILL_PATH)].map((m) => m[1] as string))];
}

/**
 * The LWIR draft a skill's text carries: the first fenced ```json block holding a Workflow
 * document, with the task's slots filled in. Null when the skills hold no draft; the offline
 * planner then plans as it does without skills.
 */
export function draftFromSkills(skillText: string, task: PlanTask): Record<string, unknown> | null {
  for (const match of skillText.matchAll(JSON_FENCE)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(match[1] as string);
    } catch {
      continue;
    }
    if (typeof parsed !== "object" || parsed === null || (parsed as { kind?: unknown }).kind !== LWIR_KIND) continue;
    return filledDraft(parsed, task);
  }
  return null;
}

/**
 * The author's plan (`defineWorkflow({ plan })`, carried in the snapshot), with the task's slots
 * filled in as a skill's draft is. Null when the definition states none.
 */
export function authoredDraft(task: PlanTask): Record<string, unknown> | null {
  const plan = task.workflowSnapshot.plan;
  return plan === undefined ? null : filledDraft(plan, task);
}

function filledDraft(draft: unknown, task: PlanTask): Record<string, unknown> {
  return withFileDigests(fillSlots(structuredClone(draft), task)) as Record<string, unknown>;
}

function fillSlots(value: unknown, task: PlanTask): unknown {
  if (typeof value === "string") {
    const fill = PLAN_SLOTS[value];
    return fill ? fill(task) : value;
  }
  if (Array.isArray(value)) return value.map((v) => fillSlots(v, task));
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillSlots(v, task)]));
  return value;
}

function withFileDigests(lwir: unknown): unknown {
  const steps = (lwir as { steps?: unknown }).steps;
  if (!Array.isArray(steps)) return lwir;
  for (const step of steps) {
    const files = (step as { uses?: unknown; with?: { files?: unknown } } | null)?.with?.files;
    if ((step as { uses?: unknown }).uses !== "code.run" || typeof files !== "object" || files === null) continue;
    for (const file of Object.values(files as Record<string, { content?: unknown; sha256?: unknown }>)) {
      if (typeof file?.content === "string") file.sha256 = digestText(file.content);
    }
  }
  return lwir;
}

/** Code files of a draft, by name, for writing them to scratch and hashing them with `sha256sum`. */
export function codeFilesOf(lwir: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  const steps = Array.isArray(lwir.steps) ? lwir.steps : [];
  for (const step of steps as { uses?: unknown; with?: { files?: Record<string, { content?: unknown }> } }[]) {
    if (step?.uses !== "code.run") continue;
    for (const [name, file] of Object.entries(step.with?.files ?? {})) if (typeof file?.content === "string") out[name] = file.content;
  }
  return out;
}
