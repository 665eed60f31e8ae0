import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importCycles } from "./cycles.ts";
import { applyExceptions, checkLayers, describeViolation, type Exception, layerOf, PACKAGES, parseLayerTable } from "./layers.ts";
import { REPO_ROOT, readSourceTree, type SourceFile } from "./source-tree.ts";

/**
 * Every import in src/ and durable-objects/ held to the layer table of docs/architecture.md.
 */

type PackageJson = { dependencies: Record<string, string> };

const layers = parseLayerTable(readFileSync(join(REPO_ROOT, "docs/architecture.md"), "utf8"));

/**
 * Known breaks being removed, each with why it is still here. The list only shrinks: an entry
 * that matches nothing fails the test until it is deleted.
 */
const EXCEPTIONS: readonly Exception[] = [];

/** Files that still import each other in a loop, each loop with why it is still here. Only shrinks. */
const LOOPS: Readonly<Record<string, string>> = {};

describe("layers (docs/architecture.md)", () => {
  it("the table names every layer once and only layers it defines (or, under may import, dependencies)", () => {
    const names = layers.map((l) => l.name);
    expect(new Set(names).size).toBe(names.length);
    const dependencies = Object.keys((JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as PackageJson).dependencies);
    for (const layer of layers) {
      for (const other of layer.mayImport) expect([...names, ...dependencies], `${layer.name} lists ${other}`).toContain(other);
      for (const other of layer.typesFrom.filter((t) => t !== PACKAGES)) expect(names, `${layer.name} lists ${other}`).toContain(other);
    }
    expect(names).toEqual(expect.arrayContaining(["sdk", "json", "schema", "identity", "lwir", "ports", "harness", "engine", "wiring"]));
  });

  it("every import in src/ and durable-objects/ is one the table allows", () => {
    const { unexcused, stale } = applyExceptions(checkLayers(readSourceTree(), layers), EXCEPTIONS);
    expect(unexcused.map(describeViolation)).toEqual([]);
    expect(stale.map((e) => `${e.from} -> ${e.to} (fixed: delete this exception)`)).toEqual([]);
  });

  it("no two files import each other, directly or round a loop (but the known loops)", () => {
    const loops = importCycles(readSourceTree()).map((set) => set.join(" "));
    expect(loops.filter((l) => !(l in LOOPS))).toEqual([]);
    expect(Object.keys(LOOPS).filter((l) => !loops.includes(l))).toEqual([]);
  });

  it("places the folders being moved where the table says", () => {
    const at = (path: string) => layerOf(path, layers)?.name;
    expect(at("src/engine/run-host.ts")).toBe("engine");
    expect(at("src/engine/run-host/run-commands.ts")).toBe("engine");
    expect(at("src/ports/run-handle.ts")).toBe("ports");
    expect(at("src/worlds/memory-world.ts")).toBe("wiring");
    expect(at("src/wiring.ts")).toBe("wiring");
    expect(at("durable-objects/run.ts")).toBe("run-object");
    expect(at("src/engine/runs/start-service.ts")).toBe("engine");
    expect(at("src/triggers/queue-consumer.ts")).toBe("triggers");
    expect(at("src/wiring/insecure-configuration.ts")).toBe("wiring");
  });

  it("every start goes through the engine's start service: only it calls a run object's start", () => {
    // A run handle's start takes one request object; doc comments (` * ` lines) are not calls.
    const code = (text: string) => text.split("\n").filter((line) => !/^\s*(\*|\/\/)/.test(line));
    const callers = readSourceTree()
      .filter((f) => code(f.text).some((line) => /\.start\(\s*\{/.test(line)))
      .map((f) => f.path);
    expect(callers).toEqual(["src/engine/runs/start-service.ts"]);
  });
});

describe("the layer check catches a bad import (fixtures in memory)", () => {
  const check = (...files: SourceFile[]) => checkLayers(files, layers).map(describeViolation);

  it("core importing an adapter", () => {
    const bad = { path: "src/lwir/x.ts", text: 'import { D1VersionStore } from "../adapters/d1/d1-version-store.ts";\n' };
    expect(check(bad)).toEqual(["src/lwir/x.ts:1 -> src/adapters/d1/d1-version-store.ts: lwir may not import adapters"]);
  });

  it("core importing a Cloudflare module, even as a type or dynamically", () => {
    const bad = {
      path: "src/engine/x.ts",
      text: [
        'import { env } from "cloudflare:workers";',
        'import type { Sandbox } from "@cloudflare/sandbox";',
        'const agents = () => import("agents");',
      ].join("\n"),
    };
    expect(check(bad)).toEqual([
      "src/engine/x.ts:1 -> cloudflare:workers: core layer engine imports a Cloudflare module",
      "src/engine/x.ts:2 -> @cloudflare/sandbox: core layer engine imports a Cloudflare package",
      "src/engine/x.ts:3 -> agents: core layer engine imports the Cloudflare agents SDK",
    ]);
  });

  it("a trigger importing the API, and an adapter built outside the wiring", () => {
    const files = [
      { path: "src/triggers/x.ts", text: 'import { startTenantRun } from "../api/run-operations.ts";' },
      { path: "src/api/x.ts", text: 'import { D1RunIndex } from "../adapters/d1/d1-run-index.ts";' },
      { path: "src/engine/x.ts", text: 'import { wire } from "../wiring.ts";' },
    ];
    expect(check(...files)).toEqual([
      "src/triggers/x.ts:1 -> src/api/run-operations.ts: triggers may not import edge",
      "src/api/x.ts:1 -> src/adapters/d1/d1-run-index.ts: edge may not import adapters",
      "src/engine/x.ts:1 -> src/wiring.ts: engine may not import wiring",
    ]);
  });

  it("an upward import, a value from a types-only layer or package, and a file outside every layer", () => {
    const files = [
      { path: "src/schema/x.ts", text: 'import { snapshotDefinition } from "../identity/definition-snapshot.ts";' },
      {
        path: "src/ports/x.ts",
        text: 'import { digestJson } from "../json/digest.ts";\nimport type { Digest } from "../json/digest.ts";\nimport { generateText } from "ai";',
      },
      { path: "src/api/x.ts", text: 'import type { RunObject } from "../../durable-objects/run.ts";' },
      { path: "src/harness/x.ts", text: 'import { plans } from "../../test/planner-corpus/plans.ts";' },
      { path: "src/elsewhere/x.ts", text: "" },
    ];
    expect(check(...files)).toEqual([
      "src/schema/x.ts:1 -> src/identity/definition-snapshot.ts: schema may not import identity",
      "src/ports/x.ts:1 -> src/json/digest.ts: ports may import only types from json",
      "src/ports/x.ts:3 -> ai: ports may import only types from packages",
      "src/api/x.ts:1 -> durable-objects/run.ts: edge may not import run-object",
      "src/harness/x.ts:1 -> test/planner-corpus/plans.ts: harness imports test/planner-corpus/plans.ts, outside every layer (src/ and durable-objects/ import no tests or scripts)",
      "src/elsewhere/x.ts:1 -> src/elsewhere/x.ts: the file belongs to no layer of docs/architecture.md",
    ]);
  });

  it("comments and strings are not imports; a type-only named import is a type import", () => {
    const ok = {
      path: "src/ports/x.ts",
      text: [
        '// import { D1 } from "../adapters/d1/d1.ts";',
        'import { z } from "zod";',
        "const s = \"import x from '../adapters/d1/d1.ts'\";",
        'import { type Digest } from "../json/digest.ts";',
        'export type { JsonValue } from "../json/canonical-json.ts";',
      ].join("\n"),
    };
    expect(check(ok)).toEqual([]);
  });

  it("a loop of imports is found, type-only imports included", () => {
    const files = [
      { path: "src/lwir/a.ts", text: 'import { b } from "./b.ts";' },
      { path: "src/lwir/b.ts", text: 'import type { C } from "./c.ts";' },
      { path: "src/lwir/c.ts", text: 'export { a } from "./a.ts";' },
      { path: "src/lwir/d.ts", text: 'import { a } from "./a.ts";' },
    ];
    expect(importCycles(files)).toEqual([["src/lwir/a.ts", "src/lwir/b.ts", "src/lwir/c.ts"]]);
  });

  it("an exception excuses exactly its import, and one that matches nothing is reported stale", () => {
    const violations = checkLayers([{ path: "src/lwir/x.ts", text: 'import "../adapters/d1/schema.ts";' }], layers);
    const used = { from: "src/lwir/x.ts", to: "src/adapters/d1/schema.ts", reason: "fixture" };
    const unused = { from: "src/lwir/y.ts", to: "src/adapters/d1/schema.ts", reason: "fixture" };
    expect(applyExceptions(violations, [used, unused])).toEqual({ unexcused: [], stale: [unused] });
  });
});
