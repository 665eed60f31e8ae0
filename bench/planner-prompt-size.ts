/**
 * The planner's prompt size for each shipped example: the system prompt, the user prompt (the task
 * with the sample input and the two worked examples) and the `submit_lwir` parameter schema, in
 * characters and approximate tokens (characters / 4, a rough rule for English and JSON; a real
 * tokenizer will differ by some tens of percent). Built with the same functions the planner
 * session uses; test/planner-corpus/prompt-size.test.ts checks these figures against the request a
 * model really receives. Run: `node bench/planner-prompt-size.ts` (add `--json` for JSON).
 */

import { registeredCapabilities } from "../src/engine/definition-capabilities.ts";
import { plannerSystemPrompt, plannerUserPrompt, planTask } from "../src/harness/planner-prompt.ts";
import { LWIR_VALIDATOR_ID, validatorVersion } from "../src/identity/lwir-validator-id.ts";
import { providerLwirSchema } from "../src/lwir/lwir-json-schema.ts";
import { promptedKinds } from "../src/lwir/types.ts";
import { registeredWorkflows } from "../src/workflows.ts";
import { SAMPLE_INPUTS, type WorkflowId } from "../test/planner-corpus/plans.ts";

export type PromptSize = {
  readonly workflowId: string;
  readonly systemChars: number;
  readonly userChars: number;
  /** The `submit_lwir` parameters as JSON (`{ lwir: <provider LWIR schema> }`), as sent to the provider. */
  readonly submitSchemaChars: number;
  readonly totalChars: number;
  /** `totalChars / 4`, rounded: an approximation, not a tokenizer count. */
  readonly approxTokens: number;
};

/** The `submit_lwir` parameter schema exactly as the planner session declares it. */
export function submitLwirParameters(workflowId?: string): Record<string, unknown> {
  return { type: "object", properties: { lwir: providerLwirSchema(kindsOf(workflowId)) }, required: ["lwir"], additionalProperties: false };
}

/** The step kinds a shipped workflow's planner is shown (workflow.run only with callees). */
function kindsOf(workflowId: string | undefined) {
  const declared = registeredWorkflows.find((w) => w.definition.id === workflowId)?.definition.workflows ?? [];
  return promptedKinds(validatorVersion(LWIR_VALIDATOR_ID), { callees: declared.length > 0 });
}

export async function plannerPromptSizes(): Promise<PromptSize[]> {
  const out: PromptSize[] = [];
  for (const { definition } of registeredWorkflows) {
    const caps = await registeredCapabilities(registeredWorkflows, definition.id);
    const maxRevisions = caps.snapshot.plannerConfig.maxRevisions;
    const system = plannerSystemPrompt(
      definition.planner.system,
      definition.planner.skills,
      maxRevisions,
      caps.lwirValidator,
      undefined,
      kindsOf(definition.id),
    );
    const user = plannerUserPrompt(planTask(caps, SAMPLE_INPUTS[definition.id as WorkflowId] ?? {}));
    const schema = JSON.stringify(submitLwirParameters(definition.id));
    const totalChars = system.length + user.length + schema.length;
    out.push({
      workflowId: definition.id,
      systemChars: system.length,
      userChars: user.length,
      submitSchemaChars: schema.length,
      totalChars,
      approxTokens: Math.round(totalChars / 4),
    });
  }
  return out;
}

if (import.meta.main) {
  const sizes = await plannerPromptSizes();
  if (process.argv.includes("--json")) {
    console.log(JSON.stringify(sizes, null, 2));
  } else {
    console.log("| workflow | system | user | submit_lwir schema | total chars | ≈ tokens (chars/4) |");
    console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
    for (const s of sizes)
      console.log(`| ${s.workflowId} | ${s.systemChars} | ${s.userChars} | ${s.submitSchemaChars} | ${s.totalChars} | ${s.approxTokens} |`);
  }
}
