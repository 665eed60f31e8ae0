import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const CLI = resolve(import.meta.dirname, "../../src/cli/little.ts");

type Result = { code: number; stdout: string; stderr: string };

function little(args: string[], stdin?: string): Promise<Result> {
  return new Promise((done) => {
    const child = execFile(process.execPath, [CLI, ...args], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
    // The CLI may stop reading early (an oversized stream); that closes the pipe under us.
    child.stdin?.on("error", () => {});
    if (stdin !== undefined) child.stdin?.end(stdin);
    else child.stdin?.end();
  });
}

const seed = {
  apiVersion: "littleworkflow.dev/v0.1",
  kind: "Workflow",
  metadata: { name: "support.summarize-ticket", version: "0.1.0", description: "Summarize a support ticket and classify severity." },
  input: {
    schema: {
      type: "object",
      required: ["ticketId", "transcript"],
      properties: { ticketId: { type: "string" }, transcript: { type: "string" } },
    },
  },
  output: {
    schema: {
      type: "object",
      required: ["summary", "severity"],
      properties: { summary: { type: "string" }, severity: { type: "string", enum: ["low", "medium", "high"] } },
    },
  },
  permissions: { models: ["gpt-4o-mini"], tools: [], secrets: [], network: [] },
  steps: [
    {
      id: "summarize",
      uses: "ai.generate",
      needs: [],
      with: { model: "gpt-4o-mini", prompt: "Summarize ticket {{ input.ticketId }}:\n{{ input.transcript }}" },
      output: { mode: "object", schema: { type: "object", properties: { summary: { type: "string" } } } },
    },
  ],
};

let dir: string;
const file = (name: string) => join(dir, name);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "little-cli-"));
  await writeFile(file("seed.json"), JSON.stringify(seed));
  await writeFile(file("seed-reordered.json"), JSON.stringify(Object.fromEntries(Object.entries(seed).reverse())));
  await writeFile(
    file("invalid.json"),
    JSON.stringify({ ...seed, steps: [{ ...seed.steps[0], with: { model: "gpt-5", prompt: "{{ input.__proto__ }}" } }] }),
  );
  await writeFile(file("broken.json"), '{"apiVersion": ');
  await writeFile(file("big.json"), JSON.stringify({ pad: "x".repeat(5 * 1024 * 1024) }));
  await writeFile(file("deep.json"), `${"[".repeat(100_000)}${"]".repeat(100_000)}`);
  await writeFile(
    file("wrong-types.json"),
    JSON.stringify({ apiVersion: 1, kind: [], metadata: "x", input: 3, output: null, permissions: [], steps: {} }),
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const SRC = resolve(import.meta.dirname, "../../src");
const ZOD = import.meta.resolve("zod");
/** A project's workflow and tool modules, as `--entry` loads them (TypeScript, stripped by Node). */
const WORKFLOW_MODULE = `import { defineWorkflow, model } from "${SRC}/index.ts";
import { OfflineLanguageModel } from "${SRC}/package/testing.ts";
import { z } from "${ZOD}";
const m = new OfflineLanguageModel({ modelId: "gpt-4o-mini" });
export const triage = defineWorkflow({
  id: "support.triage-ticket",
  description: "Triage a ticket.",
  input: z.object({ ticketId: z.string() }),
  output: z.string(),
  models: [model(m, { description: "Fast." })],
  planner: { model: m, system: "Plan." },
  globalTools: ["lookupCustomer"],
});
`;
const TOOL_MODULE = `import { tool } from "${SRC}/index.ts";
import { z } from "${ZOD}";
export const lookupCustomer = tool({
  description: "Look up a customer.",
  inputSchema: z.object({ ticketId: z.string() }),
  execute: async ({ ticketId }: { ticketId: string }) => ({ ticketId }),
});
`;
const boundPlan = (input: Record<string, string>) => ({
  apiVersion: "littleworkflow.dev/v0.1",
  kind: "Workflow",
  metadata: { name: "support.triage-ticket", version: "0.1.0" },
  input: { schema: { type: "object", properties: { ticketId: { type: "string" } }, required: ["ticketId"] } },
  output: { schema: { type: "string" } },
  permissions: { models: [], tools: ["lookupCustomer"], secrets: [], network: [] },
  steps: [{ id: "lookup", uses: "tool.call", needs: [], with: { tool: "lookupCustomer", input }, output: { mode: "text" } }],
});

describe("little validate --workflow --entry: the binding pass from the project's own modules", () => {
  beforeAll(async () => {
    await writeFile(file("workflow.ts"), WORKFLOW_MODULE);
    await writeFile(file("tool.ts"), TOOL_MODULE);
    await writeFile(file("good.plan.json"), JSON.stringify(boundPlan({ ticketId: "{{ input.ticketId }}" })));
    await writeFile(file("bad.plan.json"), JSON.stringify(boundPlan({ ticket: "{{ input.ticketId }}" })));
  });
  const entry = () => ["--workflow", "support.triage-ticket", "--entry", file("workflow.ts"), "--entry", file("tool.ts")];

  it("finds what the server would refuse (binding.tool_input_mismatch) in a plan that is structurally valid", async () => {
    expect((await little(["validate", file("bad.plan.json")])).code).toBe(0);
    const r = await little(["validate", file("bad.plan.json"), ...entry()]);
    expect(r.code, r.stderr).toBe(1);
    const findings = (JSON.parse(r.stdout) as { findings: { code: string; path: string }[] }).findings;
    expect(findings.map((f) => [f.code, f.path])).toContainEqual(["binding.tool_input_mismatch", "$.steps[0].with.input"]);
  });

  it("passes a plan that binds, and names what it cannot find", async () => {
    const good = await little(["validate", file("good.plan.json"), ...entry()]);
    expect(good.code, good.stdout + good.stderr).toBe(0);
    expect(JSON.parse(good.stdout)).toEqual({ valid: true, findings: [] });
    const other = await little(["validate", file("good.plan.json"), "--workflow", "nope", "--entry", file("workflow.ts")]);
    expect(other.code).toBe(2);
    expect(JSON.parse(other.stderr).error).toMatchObject({
      code: "workflow_not_found",
      message: expect.stringContaining("support.triage-ticket"),
    });
    const noTool = await little([
      "validate",
      file("good.plan.json"),
      "--workflow",
      "support.triage-ticket",
      "--entry",
      file("workflow.ts"),
    ]);
    expect(noTool.code).toBe(2);
    expect(JSON.parse(noTool.stderr).error).toMatchObject({
      code: "definition_invalid",
      message: expect.stringContaining("lookupCustomer"),
    });
    const unloadable = await little(["validate", file("good.plan.json"), "--workflow", "x", "--entry", file("nothing.ts")]);
    expect(JSON.parse(unloadable.stderr).error.code).toBe("entry_unloadable");
  });
});

describe("little validate", () => {
  it("answers --help with the usage, as every command does (not a file named --help)", async () => {
    for (const command of ["validate", "hash"]) {
      const r = await little([command, "--help"]);
      expect(r.code, command).toBe(0);
      expect(r.stdout).toContain("validate <lwir.json|->");
    }
  });

  it("prints no findings and exits 0 for valid LWIR", async () => {
    const r = await little(["validate", file("seed.json")]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ valid: true, findings: [] });
    expect(r.stderr).toBe("");
  });

  it("prints the findings and exits 1 for invalid LWIR", async () => {
    const r = await little(["validate", file("invalid.json")]);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { valid: boolean; findings: { code: string; path: string }[] };
    expect(out.valid).toBe(false);
    expect(out.findings.map((f) => f.code).sort()).toEqual(["step.model_not_permitted", "template.forbidden_property"]);
    expect(out.findings.find((f) => f.code === "step.model_not_permitted")?.path).toBe("$.steps[0].with.model");
  });

  it("reads stdin with -", async () => {
    const r = await little(["validate", "-"], JSON.stringify(seed));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).valid).toBe(true);
  });

  it("gives findings, not a crash, for wrong types everywhere", async () => {
    const r = await little(["validate", file("wrong-types.json")]);
    expect(r.code).toBe(1);
    const codes = (JSON.parse(r.stdout) as { findings: { code: string }[] }).findings.map((f) => f.code);
    expect(codes).toContain("api_version.unsupported");
    expect(codes).toContain("field.invalid_type");
  });

  it("answers a document nested 100,000 deep with a finding, not a stack overflow", async () => {
    const r = await little(["validate", file("deep.json")]);
    expect(r.code).toBe(1);
    expect((JSON.parse(r.stdout) as { findings: { code: string }[] }).findings[0]?.code).toBe("document.too_deep");
    expect(r.stderr).toBe("");
  });

  it.each([
    ["broken.json", "invalid_json"],
    ["big.json", "document_too_large"],
    ["missing.json", "file_not_found"],
  ])("exits 2 with a JSON error for %s (%s)", async (name, code) => {
    const r = await little(["validate", file(name)]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    const err = JSON.parse(r.stderr) as { error: { code: string; message: string } };
    expect(err.error.code).toBe(code);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("refuses an oversized stdin stream", async () => {
    const r = await little(["validate", "-"], "x".repeat(5 * 1024 * 1024));
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr).error.code).toBe("document_too_large");
  });

  it("exits 2 with a usage error for a directory, a missing argument and an unknown command", async () => {
    expect((await little(["validate", dir])).code).toBe(2);
    expect(JSON.parse((await little(["validate"])).stderr).error.code).toBe("usage");
    expect(JSON.parse((await little(["frobnicate", "x"])).stderr).error.code).toBe("usage");
  });
});

describe("little hash", () => {
  it("prints the canonical digest and the version id, equal for reordered keys", async () => {
    const a = await little(["hash", file("seed.json")]);
    const b = await little(["hash", file("seed-reordered.json")]);
    expect(a.code).toBe(0);
    const out = JSON.parse(a.stdout) as { hash: string; versionId: string; canonicalizer: string };
    expect(out.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(out.versionId).toBe(`wfver_${out.hash.slice(7, 23)}`);
    expect(out.canonicalizer).toBe("little-workflow-canonical-json@alpha");
    expect(JSON.parse(b.stdout)).toEqual(out);
  });

  it("hashes the canonical UTF-8 bytes (checked against Node's crypto)", async () => {
    const { createHash } = await import("node:crypto");
    const r = await little(["hash", "-"], '{ "b": "é", "a": [1.50, 1e21] }');
    const expected = createHash("sha256").update('{"a":[1.5,1e+21],"b":"é"}', "utf8").digest("hex");
    expect(JSON.parse(r.stdout).hash).toBe(`sha256:${expected}`);
  });

  it("refuses a too-deep document with exit 2 and a named code", async () => {
    const r = await little(["hash", file("deep.json")]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr).error.code).toBe("canonical_json_rejected");
  });
});
