import { beforeAll, describe, expect, it } from "vitest";
import type { DefinitionCapabilities } from "../../src/identity/definition-snapshot.ts";
import { checkLwir } from "../../src/lwir/check-lwir.ts";
import { validateLwir } from "../../src/lwir/validate-lwir.ts";
import type { Finding } from "../../src/sdk/finding.ts";
import {
  boundSeedLwir,
  clone,
  type JsonObject,
  remove,
  SCORE_TS_SHA256,
  seedWithComputeScore,
  set,
  summarizeCapabilities,
} from "./fixtures.ts";

function at(findings: readonly Finding[], path: string): Finding {
  const found = findings.find((f) => f.path === path);
  if (!found) throw new Error(`no finding at ${path}: ${JSON.stringify(findings)}`);
  return found;
}

describe("findings teach the fix", () => {
  let caps: DefinitionCapabilities;
  beforeAll(async () => {
    caps = await summarizeCapabilities();
  });

  it("a missing with says what it must hold for the step's kind, with the task's slot ids", () => {
    const doc = remove(boundSeedLwir(), ["steps", 0, "with"]);
    const f = at(checkLwir(doc, caps), "$.steps[0].with");
    expect(f.code).toBe("field.required");
    expect(f.message).toContain("for ai.generate: { model (a slot id: gpt-5");
    expect(f.message).toContain("prompt, system?, temperature?, maxOutputTokens?");
  });

  it("an unknown field names the one it most likely meant", () => {
    const step = (k: string, v: unknown) => set(boundSeedLwir(), ["steps", 0, k], v);
    expect(at(validateLwir(step("kind", "ai.generate")).findings, "$.steps[0].kind").message).toContain('Did you mean "uses"?');
    expect(at(validateLwir(step("dependsOn", [])).findings, "$.steps[0].dependsOn").message).toContain('Did you mean "needs"?');
    expect(at(validateLwir(set(boundSeedLwir(), ["steps", 0, "with", "promt"], "x")).findings, "$.steps[0].with.promt").message).toContain(
      'Did you mean "prompt"?',
    );
    const inWith = set(boundSeedLwir(), ["steps", 0, "with", "output"], { mode: "text" });
    expect(at(validateLwir(inWith).findings, "$.steps[0].with.output").message).toContain("belongs on the step itself");
  });

  it("uses naming a tool says how to call it; a case without step is a missing field; steps as an object says how to list them", () => {
    const toolKind = set(boundSeedLwir(), ["steps", 0, "uses"], "crm.lookup");
    expect(validateLwir(toolKind, { tools: ["crm.lookup"] }).findings[0]?.message).toContain(
      '"uses": "tool.call" and "with": { "tool": "crm.lookup"',
    );
    const doc = boundSeedLwir();
    const summarize = (doc.steps as JsonObject[])[0] as JsonObject;
    doc.steps = [
      { id: "route", uses: "decision", needs: [], with: { cases: [{ when: "{{ input.ticketId }}" }], default: "summarize" } },
      { ...summarize, needs: ["route"] },
    ];
    const f = at(validateLwir(doc).findings, "$.steps[0].with.cases[0].step");
    expect(f.code).toBe("field.required");
    expect(f.message).not.toContain("undefined");
    const keyed = set(boundSeedLwir(), ["steps"], { summarize: summarize });
    expect(at(validateLwir(keyed).findings, "$.steps").message).toContain('keyed by "summarize"');
  });

  it("a wrong or missing file digest gives the digest to write; an output string names the object form", () => {
    const wrong = set(seedWithComputeScore(), ["steps", 0, "with", "files", "score.ts", "sha256"], `sha256:${"0".repeat(64)}`);
    expect(at(validateLwir(wrong).findings, '$.steps[0].with.files["score.ts"].sha256').message).toContain(
      `set "sha256": "${SCORE_TS_SHA256}"`,
    );
    const missing = remove(seedWithComputeScore(), ["steps", 0, "with", "files", "score.ts", "sha256"]);
    expect(at(validateLwir(missing).findings, '$.steps[0].with.files["score.ts"].sha256').message).toContain(SCORE_TS_SHA256);
    const text = set(clone(boundSeedLwir()), ["steps", 0, "output"], "text");
    expect(at(validateLwir(text).findings, "$.steps[0].output").message).toContain('{ "mode": "text" }');
  });

  it("binding runs on a structurally invalid draft too, so one pass shows both layers", () => {
    const doc = set(set(boundSeedLwir(), ["metadata", "name"], "someone.else"), ["steps", 0, "kind"], "x");
    const codes = checkLwir(doc, caps).map((f) => f.code);
    expect(codes).toContain("field.unknown");
    expect(codes).toContain("binding.workflow_name_mismatch");
  });
});

describe("findings teach the fix (review of the corpus)", () => {
  it("an operator in a when or a template names the functions to call instead", () => {
    const doc = boundSeedLwir();
    const summarize = (doc.steps as JsonObject[])[0] as JsonObject;
    doc.steps = [
      {
        id: "route",
        uses: "decision",
        needs: [],
        with: { cases: [{ when: '{{ input.ticketId == "x" }}', step: "summarize" }], default: "summarize" },
      },
      { ...summarize, needs: ["route"] },
    ];
    expect(at(validateLwir(doc).findings, "$.steps[0].with.cases[0].when").message).toContain("call eq(a, b)");
    const prompt = set(boundSeedLwir(), ["steps", 0, "with", "prompt"], "{{ input.a && input.b }}");
    expect(at(validateLwir(prompt).findings, "$.steps[0].with.prompt").message).toContain("Operators are not supported");
  });

  it("a step field inside with says it belongs on the step; a sandbox string shows the object; a schema as output says to wrap it", () => {
    const forEach = set(boundSeedLwir(), ["steps", 0, "with", "forEach"], { items: "{{ input.x }}" });
    expect(at(validateLwir(forEach).findings, "$.steps[0].with.forEach").message).toContain('"forEach" belongs on the step itself');
    const sandbox = set(seedWithComputeScore(), ["steps", 0, "with", "sandbox"], "deny");
    expect(at(validateLwir(sandbox).findings, "$.steps[0].with.sandbox").message).toContain(
      '{ "network": "deny", "env": "deny", "fs": "deny" }',
    );
    const schema = set(boundSeedLwir(), ["steps", 0, "output"], { type: "object", properties: {} });
    expect(at(validateLwir(schema).findings, "$.steps[0].output.mode").message).toContain('wrap it as { "mode": "object", "schema"');
    const version = set(boundSeedLwir(), ["metadata", "version"], 1);
    expect(at(validateLwir(version).findings, "$.metadata.version").message).toContain('"0.1.0"');
  });

  it("a step without uses is not also told its output is missing", () => {
    const doc = remove(remove(boundSeedLwir(), ["steps", 0, "uses"]), ["steps", 0, "output"]);
    expect(validateLwir(doc).findings.map((f) => f.path)).not.toContain("$.steps[0].output");
  });
});
