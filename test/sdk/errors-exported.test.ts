/**
 * Every named error class in src/sdk/errors/ is importable from the package entry
 * (`little-workflow`), so a user can `instanceof` what a run or a call throws; a new error file
 * that is not exported fails here, by name.
 */
import { describe, expect, it } from "vitest";
import * as entry from "../../src/index.ts";
import { LittleError } from "../../src/sdk/errors/little-error.ts";

// Vite resolves the glob at build time: the folder's files as they are, no file system access.
const modules = import.meta.glob<Record<string, unknown>>("../../src/sdk/errors/*.ts", { eager: true });

/** The classes a module exports (LittleError or its subclasses), by export name. */
function errorClasses(module: Record<string, unknown>): [string, unknown][] {
  return Object.entries(module).filter(
    ([, value]) => typeof value === "function" && (value === LittleError || value.prototype instanceof LittleError),
  );
}

describe("the package entry's named errors", () => {
  const declared = Object.entries(modules).flatMap(([file, module]) =>
    errorClasses(module).map(([name, value]) => ({ file: file.replace("../../", ""), name, value })),
  );

  it("finds at least one LittleError class in every file of src/sdk/errors/ (one error per file)", () => {
    const files = Object.keys(modules).map((file) => file.replace("../../", ""));
    expect(files.length).toBeGreaterThanOrEqual(25);
    expect(files.filter((file) => !declared.some((d) => d.file === file))).toEqual([]);
    expect(declared.map((d) => d.name)).toEqual(expect.arrayContaining(["LittleError", "ModelUnavailableError", "RunTerminatedError"]));
  });

  it("exports every one of them from little-workflow, as the same class", () => {
    const exported = entry as Record<string, unknown>;
    const missing = declared.filter((d) => exported[d.name] !== d.value).map((d) => `${d.name} (${d.file})`);
    expect(missing, "add these to src/sdk/index.ts").toEqual([]);
  });
});
