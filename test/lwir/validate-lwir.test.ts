import { beforeAll, describe, expect, it } from "vitest";
import { type DefinitionCapabilities, snapshotDefinition } from "../../src/identity/definition-snapshot.ts";
import { digestText } from "../../src/json/digest.ts";
import { bindLwir } from "../../src/lwir/bind-lwir.ts";
import { checkLwir } from "../../src/lwir/check-lwir.ts";
import { LWIR_FINDING_CODES, type LwirFindingCode } from "../../src/lwir/finding-codes.ts";
import { findCycle, terminalSteps, upstreamSets } from "../../src/lwir/graph.ts";
import { MAX_LWIR_BYTES, MAX_STEPS, validateLwir } from "../../src/lwir/validate-lwir.ts";
import type { Finding } from "../../src/sdk/finding.ts";
import { pathOf } from "../../src/sdk/json-path.ts";
import { CASES, deepInputSchema, type Located, score, scoreFile, summarize, TOO_DEEP_A_COUNT } from "./finding-cases.ts";
import {
  aiStep,
  boundSeedLwir,
  calleeCapabilities,
  chainLwir,
  clone,
  computeScoreStep,
  get,
  type JsonObject,
  kitchenSinkLwir,
  lookupCapabilities,
  type PathKey,
  remove,
  SCORE_TS_SHA256,
  seedLwir,
  seedWithComputeScore,
  seedWithSteps,
  set,
  summarizeCapabilities,
  summarizeWithLookup,
} from "./fixtures.ts";

/** The two codes the catalog documents as warnings; every other code is an error. */
const WARNING_CODES: ReadonlySet<string> = new Set(["template.unknown_input_field", "step.needs_duplicate"]);

function located(findings: readonly Located[]): Located[] {
  return findings.map(({ code, path }) => ({ code, path })).sort((a, b) => (a.code + a.path < b.code + b.path ? -1 : 1));
}

describe("the seed's worked example", () => {
  it("validates clean: valid, zero findings", () => {
    expect(validateLwir(seedLwir())).toEqual({ valid: true, findings: [] });
  });

  it("the fixer example's sha256 is the digest of its content", () => {
    expect(digestText(get(computeScoreStep(), ["with", "files", "score.ts", "content"]) as string)).toBe(SCORE_TS_SHA256);
    expect(get(computeScoreStep(), ["with", "files", "score.ts", "sha256"])).toBe(SCORE_TS_SHA256);
  });

  it("with the seed's compute-score code.run step (sandbox, fixer on gpt-4o-mini) wired upstream, validates clean", () => {
    const doc = seedWithComputeScore();
    expect(get(doc, ["steps", 0, "onFailure", "fixer", "model"])).toBe("gpt-4o-mini");
    expect(get(doc, ["steps", 0, "with", "sandbox"])).toEqual({ network: "deny", env: "deny", fs: "deny" });
    expect(validateLwir(doc)).toEqual({ valid: true, findings: [] });
  });

  it("compute-score validates the same with an explicit needs: []", () => {
    const doc = set(seedWithComputeScore(), ["steps", 0, "needs"], []);
    expect(validateLwir(doc)).toEqual({ valid: true, findings: [] });
  });

  it("the compute-score step added as a second terminal is refused as multiple terminals", () => {
    const doc = seedLwir();
    (doc.steps as unknown[]).push(computeScoreStep());
    expect(located(validateLwir(doc).findings)).toEqual([{ code: "graph.multiple_terminals", path: "$.steps" }]);
  });

  it("the bound variant (output additionalProperties: false) and the kitchen-sink document validate clean", () => {
    expect(validateLwir(boundSeedLwir())).toEqual({ valid: true, findings: [] });
    expect(validateLwir(kitchenSinkLwir())).toEqual({ valid: true, findings: [] });
  });

  it("does not mutate the document it validates", () => {
    const doc = seedWithComputeScore();
    const before = clone(doc);
    validateLwir(doc);
    expect(doc).toEqual(before);
  });
});

describe("one failing fixture per finding code", () => {
  let capabilities: DefinitionCapabilities;
  let withLookup: DefinitionCapabilities;
  let requiresLookup: DefinitionCapabilities;
  let withCallee: DefinitionCapabilities;
  beforeAll(async () => {
    withCallee = await calleeCapabilities();
    capabilities = await summarizeCapabilities();
    withLookup = await lookupCapabilities();
    requiresLookup = await snapshotDefinition({ ...summarizeWithLookup, requiredTools: ["crm.lookup"] });
  });

  it("covers every code in LWIR_FINDING_CODES, and no code outside it", () => {
    const covered = new Set(CASES.map((c) => c.code));
    const catalog = Object.keys(LWIR_FINDING_CODES);
    expect(catalog.filter((code) => !covered.has(code as LwirFindingCode))).toEqual([]);
    expect([...covered].filter((code) => !(code in LWIR_FINDING_CODES))).toEqual([]);
  });

  it.each(CASES.map((c) => [`${c.code} (${c.title})`, c] as const))("%s", (_name, c) => {
    const doc = c.build();
    let findings: readonly Finding[];
    if (c.typed) {
      // The type pass reads the schemas a structurally valid, bound document carries.
      expect(validateLwir(doc).valid).toBe(true);
      findings = checkLwir(doc, c.withLookupTool ? withLookup : capabilities);
    } else if (c.code.startsWith("binding.")) {
      // Binding catches what structure cannot: the document is valid LWIR on its own.
      expect(validateLwir(doc).valid).toBe(true);
      findings = bindLwir(
        doc,
        c.withCallee ? withCallee : c.requiresLookup ? requiresLookup : c.withLookupTool ? withLookup : capabilities,
      );
    } else {
      const result = validateLwir(doc);
      findings = result.findings;
      expect(result.valid).toBe(findings.every((f) => f.severity === "warning"));
      expect(result.valid).toBe(WARNING_CODES.has(c.code));
    }
    const expected = [{ code: c.code, path: c.path }, ...(c.also ?? [])];
    expect(located(findings)).toEqual(located(expected));
    for (const f of findings) {
      expect(f.severity).toBe(WARNING_CODES.has(f.code) ? "warning" : "error");
      expect(typeof f.message).toBe("string");
      expect(f.message.length).toBeGreaterThan(0);
      expect(f.code in LWIR_FINDING_CODES).toBe(true);
    }
  });
});

describe("document limits", () => {
  /** The seed padded through metadata.description to exactly `bytes` of canonical JSON (UTF-8). */
  function seedOfSize(bytes: number, pad = "x"): JsonObject {
    const doc = set(seedLwir(), ["metadata", "description"], "");
    const base = new TextEncoder().encode(JSON.stringify(doc)).length;
    const padBytes = new TextEncoder().encode(pad).length;
    const count = Math.floor((bytes - base) / padBytes);
    return set(doc, ["metadata", "description"], pad.repeat(count) + "x".repeat(bytes - base - count * padBytes));
  }

  it("accepts a document of exactly 4 MiB and refuses one byte more", () => {
    const exact = seedOfSize(MAX_LWIR_BYTES);
    expect(validateLwir(exact)).toEqual({ valid: true, findings: [] });
    const over = seedOfSize(MAX_LWIR_BYTES + 1);
    expect(located(validateLwir(over).findings)).toEqual([{ code: "document.too_large", path: "$" }]);
  });

  it("counts UTF-8 bytes, not characters", () => {
    // 2-byte characters: fewer than 4 Mi characters, more than 4 MiB.
    const doc = seedOfSize(MAX_LWIR_BYTES + 2, "é");
    expect(JSON.stringify(doc).length).toBeLessThan(MAX_LWIR_BYTES);
    expect(located(validateLwir(doc).findings)).toEqual([{ code: "document.too_large", path: "$" }]);
  });

  it("accepts nesting up to the limit and refuses one level more", () => {
    expect(validateLwir(deepInputSchema(TOO_DEEP_A_COUNT - 1))).toEqual({ valid: true, findings: [] });
    expect(located(validateLwir(deepInputSchema(TOO_DEEP_A_COUNT)).findings)).toEqual([
      { code: "document.too_deep", path: `$.input.schema.properties.deep${".a".repeat(TOO_DEEP_A_COUNT)}` },
    ]);
  });

  it("refuses 100,000 levels without overflowing the stack", () => {
    expect(validateLwir(deepInputSchema(100_000)).findings.map((f) => f.code)).toEqual(["document.too_deep"]);
  });

  it("accepts exactly 1,000 steps", () => {
    expect(validateLwir(chainLwir(MAX_STEPS))).toEqual({ valid: true, findings: [] });
  });
});

describe("graph", () => {
  const cycleOf = (doc: unknown) => validateLwir(doc).findings.filter((f) => f.code === "graph.cycle");

  it("a 2-cycle is reported once, at the first step's needs, naming the loop", () => {
    const findings = cycleOf(seedWithSteps([aiStep("draft", ["summarize"]), aiStep("summarize", ["draft"])]));
    expect(findings).toHaveLength(1);
    expect(findings[0]?.path).toBe("$.steps[0].needs");
    expect(findings[0]?.message).toContain("draft → summarize → draft");
  });

  it("a 3-cycle reached from an acyclic root points at a step inside the cycle", () => {
    const doc = seedWithSteps([aiStep("root", ["a"]), aiStep("a", ["c"]), aiStep("b", ["a"]), aiStep("c", ["b"])]);
    const result = validateLwir(doc);
    expect(result.valid).toBe(false);
    expect(located(result.findings)).toEqual([{ code: "graph.cycle", path: "$.steps[1].needs" }]);
    expect(result.findings[0]?.message).toContain("a → c → b → a");
  });

  it("a 1,000-step chain with a back edge is one cycle, found without overflowing the stack", () => {
    const result = validateLwir(chainLwir(1000, { backEdge: true }));
    expect(located(result.findings)).toEqual([{ code: "graph.cycle", path: "$.steps[0].needs" }]);
  });

  it("a step needing itself, unknown needs and two terminals are each reported", () => {
    expect(located(validateLwir(seedWithSteps([aiStep("a", ["a"]), aiStep("summarize", ["a"])])).findings)).toEqual([
      { code: "step.needs_self", path: "$.steps[0].needs[0]" },
    ]);
    expect(located(validateLwir(seedWithSteps([aiStep("a"), aiStep("summarize", ["a", "b"])])).findings)).toEqual([
      { code: "step.needs_unknown", path: "$.steps[1].needs[1]" },
    ]);
    const two = validateLwir(seedWithSteps([aiStep("a"), aiStep("b"), aiStep("c", ["a"])]));
    expect(located(two.findings)).toEqual([{ code: "graph.multiple_terminals", path: "$.steps" }]);
    expect(two.findings[0]?.message).toContain('"b", "c"');
  });

  it("a diamond has one terminal and is valid", () => {
    const doc = seedWithSteps([
      aiStep("a"),
      aiStep("b", ["a"], "{{ steps.a.output }}"),
      aiStep("c", ["a"], "{{ steps.a.output }}"),
      aiStep("d", ["b", "c"], "{{ steps.b.output }} {{ steps.c.output }} {{ steps.a.output }}"),
    ]);
    expect(validateLwir(doc)).toEqual({ valid: true, findings: [] });
  });

  it("graph helpers: findCycle, terminalSteps, upstreamSets", () => {
    expect(
      findCycle([
        { id: "a", needs: [] },
        { id: "b", needs: ["a"] },
      ]),
    ).toBeNull();
    expect(
      findCycle([
        { id: "a", needs: ["b"] },
        { id: "b", needs: ["a"] },
      ]),
    ).toEqual(["a", "b", "a"]);
    expect(findCycle([{ id: "a", needs: ["ghost"] }])).toBeNull();
    const chain = Array.from({ length: 5000 }, (_, i) => ({ id: `s${i}`, needs: i === 0 ? [] : [`s${i - 1}`] }));
    expect(findCycle(chain)).toBeNull();
    expect(findCycle([{ id: "s0", needs: ["s4999"] }, ...chain.slice(1)])).toHaveLength(5001);
    expect(
      terminalSteps([
        { id: "a", needs: [] },
        { id: "b", needs: ["a"] },
        { id: "c", needs: [] },
      ]),
    ).toEqual(["b", "c"]);
    const up = upstreamSets([
      { id: "a", needs: [] },
      { id: "b", needs: ["a"] },
      { id: "c", needs: ["b", "ghost"] },
      { id: "d", needs: ["a"] },
    ]);
    expect([...(up.get("c") ?? [])].sort()).toEqual(["a", "b"]);
    expect([...(up.get("d") ?? [])]).toEqual(["a"]);
    expect(up.get("a")?.size).toBe(0);
  });

  it("upstreamSets agrees with a brute-force reachability on random graphs, cycles included", () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 50; round++) {
      const n = 1 + Math.floor(random() * 12);
      const nodes = Array.from({ length: n }, (_, i) => ({
        id: `n${i}`,
        needs: Array.from({ length: Math.floor(random() * 3) }, () => `n${Math.floor(random() * (n + 1))}`),
      }));
      const byId = new Map(nodes.map((x) => [x.id, x.needs]));
      const got = upstreamSets(nodes);
      for (const node of nodes) {
        const seen = new Set<string>();
        const visit = (id: string) => {
          for (const dep of byId.get(id) ?? []) {
            if (byId.has(dep) && !seen.has(dep)) {
              seen.add(dep);
              visit(dep);
            }
          }
        };
        visit(node.id);
        expect([...(got.get(node.id) ?? [])].sort()).toEqual([...seen].sort());
      }
    }
  });
});

describe("specific paths and codes", () => {
  it("a with: null is a type error at with, not a missing field", () => {
    expect(located(validateLwir(set(seedLwir(), [...summarize, "with"], null)).findings)).toEqual([
      { code: "field.invalid_type", path: "$.steps[0].with" },
    ]);
  });

  it("files: null is a type error at files", () => {
    const findings = located(validateLwir(set(seedWithComputeScore(), [...score, "with", "files"], null)).findings);
    expect(findings).toContainEqual({ code: "field.invalid_type", path: "$.steps[0].with.files" });
  });

  it("a missing with is field.required", () => {
    const findings = located(validateLwir(remove(seedLwir(), [...summarize, "with"])).findings);
    expect(findings).toContainEqual({ code: "field.required", path: "$.steps[0].with" });
  });

  it("an unexpected output field whose name is not an identifier gets a quoted JSONPath", () => {
    const doc = set(seedLwir(), [...summarize, "output"], { mode: "text", "x-format": "md" });
    expect(located(validateLwir(doc).findings)).toEqual([{ code: "output.unexpected_field", path: '$.steps[0].output["x-format"]' }]);
  });

  it("network allowed with permissions.network set is fine", () => {
    const doc = set(seedWithComputeScore(), [...score, "with", "sandbox", "network"], "allow");
    set(doc, ["permissions", "network"], ["api.example.com"]);
    expect(validateLwir(doc)).toEqual({ valid: true, findings: [] });
  });

  it("every output mode with its fields validates", () => {
    for (const output of [
      { mode: "text" },
      { mode: "json" },
      { mode: "json", schema: { type: "number" } },
      { mode: "choice", values: ["a", "b"] },
      { mode: "array", schema: { type: "array", items: { type: "string" } } },
      { mode: "object", schema: { type: "object" } },
    ]) {
      expect(validateLwir(set(seedLwir(), [...summarize, "output"], output)), JSON.stringify(output)).toEqual({
        valid: true,
        findings: [],
      });
    }
  });

  it("file names with '.', empty segments, backslashes or over 128 characters are refused", () => {
    for (const name of ["./score.ts", "a//score.ts", "/score.ts", "a\\score.ts", `${"a".repeat(126)}.ts`, ""]) {
      const doc = seedWithComputeScore();
      set(doc, [...score, "with", "files"], { [name]: get(doc, scoreFile), "score.ts": get(doc, scoreFile) });
      const codes = validateLwir(doc).findings.map((f) => f.code);
      expect(codes, JSON.stringify(name)).toEqual(["code.invalid_file_name"]);
    }
  });

  it("many distinct needs entries are checked in linear time", () => {
    const needs = Array.from({ length: 200_000 }, (_, i) => `n${i}`);
    const started = Date.now();
    const result = validateLwir(set(seedLwir(), [...summarize, "needs"], needs));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.findings).toHaveLength(200_000);
    expect(result.findings.every((f) => f.code === "step.needs_unknown")).toBe(true);
  });

  it("a dense 1,000-step DAG under 4 MiB validates in bounded time", () => {
    const steps = Array.from({ length: 1000 }, (_, i) =>
      aiStep(
        `s${i}`,
        Array.from({ length: Math.min(i, 600) }, (_, j) => `s${i - 1 - j}`),
        "x",
      ),
    );
    const started = Date.now();
    expect(validateLwir(seedWithSteps(steps))).toEqual({ valid: true, findings: [] });
    // ~0.5 s here; a per-step upstream traversal (O(steps × edges)) took ~3.5 s.
    expect(Date.now() - started).toBeLessThan(2_500);
  });
});

describe("robustness: never throws on junk", () => {
  it("top-level junk is refused with findings", () => {
    class Box {
      value = 1;
    }
    const cyclic: JsonObject = {};
    cyclic.self = cyclic;
    const junk: unknown[] = [
      null,
      undefined,
      42,
      Number.NaN,
      "x",
      "",
      true,
      [],
      [null],
      {},
      { apiVersion: "littleworkflow.dev/v0.1" },
      new Date(0),
      new Map(),
      new Set(),
      new Box(),
      () => seedLwir(),
      Symbol("lwir"),
      10n,
      cyclic,
      "\ud800",
      { [String.fromCharCode(0xdc00)]: 1 },
    ];
    for (const value of junk) {
      let result: ReturnType<typeof validateLwir> | undefined;
      expect(
        () => {
          result = validateLwir(value);
        },
        String(typeof value),
      ).not.toThrow();
      expect(result?.valid).toBe(false);
      expect(result?.findings.length).toBeGreaterThan(0);
    }
  });

  it("named wrong types are each refused at their path", () => {
    const cases: Array<[PathKey[], unknown]> = [
      [["steps"], { 0: aiStep("summarize") }],
      [["steps", 1, "needs"], "compute-score"],
      [["steps", 1, "with"], ["gpt-4o-mini"]],
      [["steps", 0, "with", "files"], [get(computeScoreStep(), ["with", "files", "score.ts"])]],
      [["steps", 0, "with", "sandbox"], "deny"],
      [["steps", 1, "output"], null],
      [["output"], null],
      [["permissions"], []],
      [["permissions", "models"], "gpt-4o-mini"],
      [["metadata"], "support.summarize-ticket"],
      [["steps", 0, "onFailure"], "fix it"],
      [["steps", 0, "onFailure", "fixer"], []],
    ];
    for (const [path, value] of cases) {
      const result = validateLwir(set(seedWithComputeScore(), path, value));
      expect(result.valid, pathOf(path)).toBe(false);
      expect(
        result.findings.map((f) => f.path),
        pathOf(path),
      ).toContain(pathOf(path));
    }
  });

  /** Every value path in the kitchen-sink document, minus free-form parts (schema bodies, code.run and tool input payloads). */
  function valuePaths(doc: unknown): PathKey[][] {
    const out: PathKey[][] = [];
    const walk = (value: unknown, path: PathKey[]) => {
      const last = path[path.length - 1];
      const payload = last === "input" && path[path.length - 2] === "with";
      // A code.run input is any JSON value; a tool.call input must be an object.
      if (payload && get(doc, path.slice(0, -2).concat("uses")) === "code.run") return;
      if (path.length > 0) out.push(path);
      if (last === "schema" || payload || last === "content") return;
      if (Array.isArray(value)) {
        for (const [i, v] of value.entries()) walk(v, [...path, i]);
      } else if (typeof value === "object" && value !== null) for (const [k, v] of Object.entries(value)) walk(v, [...path, k]);
    };
    walk(doc, []);
    return out;
  }

  function junkFor(value: unknown, path: readonly PathKey[]): unknown[] {
    const isSchema = path[path.length - 1] === "schema";
    if (typeof value === "string") return [null, 0, true, [], {}, ["x"]];
    if (typeof value === "number") return [null, "1", true, [], {}, -1, 1e12];
    if (typeof value === "boolean") return [null, 0, "true", [], {}];
    if (Array.isArray(value)) return [null, 0, "x", true, {}, { 0: "a" }];
    return isSchema ? [null, 0, "x", [], [{}]] : [null, 0, "x", true, [], [{}]];
  }

  it("every field of the kitchen-sink document set to every wrong type is refused at (or under) that field", () => {
    const base = kitchenSinkLwir();
    expect(validateLwir(base).valid).toBe(true);
    const paths = valuePaths(base);
    expect(paths.length).toBeGreaterThan(80);
    let checked = 0;
    for (const path of paths) {
      const at = pathOf(path);
      for (const junk of junkFor(get(base, path), path)) {
        const doc = set(clone(base), path, junk);
        let result: ReturnType<typeof validateLwir> | undefined;
        expect(
          () => {
            result = validateLwir(doc);
          },
          `${at} = ${JSON.stringify(junk)}`,
        ).not.toThrow();
        expect(result?.valid, `${at} = ${JSON.stringify(junk)}`).toBe(false);
        // A bad list entry may be reported on the list itself (e.g. output.invalid_choice at `values`).
        const list = typeof path[path.length - 1] === "number" ? pathOf(path.slice(0, -1)) : null;
        const hit = result?.findings.some(
          (f) => f.severity === "error" && (f.path === at || f.path === list || f.path.startsWith(`${at}.`) || f.path.startsWith(`${at}[`)),
        );
        expect(hit, `${at} = ${JSON.stringify(junk)}: ${JSON.stringify(result?.findings)}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(400);
  });

  it("every field of the kitchen-sink document removed never throws", () => {
    const base = kitchenSinkLwir();
    for (const path of valuePaths(base)) {
      expect(() => validateLwir(remove(clone(base), path)), pathOf(path)).not.toThrow();
    }
  });

  it("bindLwir never throws on junk either", async () => {
    const capabilities = await summarizeCapabilities();
    for (const value of [
      null,
      undefined,
      42,
      "x",
      [],
      {},
      { steps: "x" },
      { steps: [null, 1, { with: null }] },
      { permissions: { models: {}, secrets: "x" } },
      { input: { schema: () => 1 } },
    ]) {
      expect(() => bindLwir(value, capabilities)).not.toThrow();
      expect(bindLwir(value, capabilities).length).toBeGreaterThan(0);
    }
  });
});
