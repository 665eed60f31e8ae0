import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { IsolateSandbox } from "../../src/adapters/sandbox-isolate/isolate-sandbox.ts";
import { summarizeTicket } from "../../src/examples/support-summarize-ticket.ts";
import { lwirCheckCommand } from "../../src/harness/lwir-check-command.ts";
import { fillExample, minimalExample } from "../../src/harness/plan-examples.ts";
import { LWIR_CHECK_COMMAND, plannerSystemPrompt, plannerUserPrompt, planTask, TASK_FILES } from "../../src/harness/planner-prompt.ts";
import { snapshotDefinition } from "../../src/identity/definition-snapshot.ts";
import { lwirJsonSchema } from "../../src/lwir/lwir-json-schema.ts";
import { lwirReferenceMarkdown } from "../../src/lwir/lwir-reference.ts";

async function summarizeTask() {
  const caps = await snapshotDefinition(summarizeTicket, {});
  return { caps, task: planTask(caps, { ticketId: "T-1", body: "Printer on fire" }) };
}

async function plannerBash() {
  const { caps, task } = await summarizeTask();
  const sandbox = new IsolateSandbox({ loader: env.LOADER });
  const session = await sandbox.openSession({
    sessionId: "s1",
    skills: [],
    references: {
      [TASK_FILES.task]: JSON.stringify(task),
      [TASK_FILES.schema]: JSON.stringify(lwirJsonSchema()),
      [TASK_FILES.reference]: lwirReferenceMarkdown(),
    },
    commands: [lwirCheckCommand(caps)],
  });
  return { session, caps, task };
}

describe("the planner prompt teaches LWIR", () => {
  it("names the fields, the grammar, the digest recipe, the checker and the real budget", async () => {
    const { task } = await summarizeTask();
    const system = plannerSystemPrompt("Plan well.", [], 3);
    for (const needle of [
      "uses",
      "metadata.version",
      "needs",
      "with",
      "forEach",
      "onFailure",
      "sha256sum",
      "{{ expr }}",
      "default/2",
      LWIR_CHECK_COMMAND,
      TASK_FILES.reference,
    ]) {
      expect(system).toContain(needle);
    }
    expect(system).toContain("You may submit 4 times: a first draft and 3 revisions");
    const user = plannerUserPrompt(task);
    expect(user).toContain("Example 1");
    expect(user).toContain('"uses":"code.run"');
    expect(user).toContain('"uses":"decision"');
    expect(user).toContain(`"model":"${task.workflowSnapshot.modelSlots[0]?.id}"`);
  });

  it("lists no .agents/skills path when the workflow has no skills", () => {
    expect(plannerSystemPrompt("", [], 3)).not.toContain(".agents/skills/");
  });
});

describe("lwir-check in the planner's bash", () => {
  it("every /mnt/task file the prompt names exists", async () => {
    const { session } = await plannerBash();
    const r = await session.exec(`ls ${Object.values(TASK_FILES).join(" ")} && jq -r .title ${TASK_FILES.schema}`);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("LWIR littleworkflow.dev/v0.1");
  });

  it("prints every finding of a bad draft with its path and exits 1; a good draft exits 0; costs no submission", async () => {
    const { session, task } = await plannerBash();
    const good = fillExample(minimalExample(task), task);
    const bad = { ...good, steps: [{ ...(good.steps as object[])[0], kind: "ai.generate", uses: undefined }] };
    await session.writeFile("drafts/good.json", JSON.stringify(good));
    await session.writeFile("drafts/bad.json", JSON.stringify(bad));
    const okRun = await session.exec(`${LWIR_CHECK_COMMAND} drafts/good.json`);
    expect(okRun.exitCode).toBe(0);
    expect(okRun.stdout).toContain("OK: submit_lwir would accept this draft.");
    const badRun = await session.exec(`${LWIR_CHECK_COMMAND} drafts/bad.json || echo "exit=$?"`);
    expect(badRun.stdout).toContain("field.unknown at $.steps[0].kind");
    expect(badRun.stdout).toContain('Did you mean "uses"?');
    expect(badRun.stdout).toContain("field.required at $.steps[0].uses");
    expect(badRun.stdout).toContain("exit=1");
    const piped = await session.exec(`cat drafts/bad.json | ${LWIR_CHECK_COMMAND} - --json | jq .accepted`);
    expect(piped.stdout.trim()).toBe("false");
    const missing = await session.exec(`${LWIR_CHECK_COMMAND} nope.json`);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain("no such file");
  });

  it("reads a draft with prose around it, with a warning, and refuses text that is no JSON", async () => {
    const { session, task } = await plannerBash();
    const good = fillExample(minimalExample(task), task);
    await session.writeFile("drafts/prose.txt", `Here is the plan:\n\`\`\`json\n${JSON.stringify(good)}\n\`\`\`\nDone.`);
    const prose = await session.exec(`${LWIR_CHECK_COMMAND} drafts/prose.txt`);
    expect(prose.exitCode).toBe(0);
    expect(prose.stdout).toContain("submission.text_around_json");
    await session.writeFile("drafts/junk.txt", "no json here");
    const junk = await session.exec(`${LWIR_CHECK_COMMAND} drafts/junk.txt`);
    expect(junk.exitCode).toBe(1);
    expect(junk.stdout).toContain("submission.not_json");
  });
});
