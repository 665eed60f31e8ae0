import { type HarnessRef, HarnessUnknownError } from "./errors/harness-unknown-error.ts";
import { HARNESS_IDS, isHarnessId } from "./harness-ids.ts";
import { childPath } from "./json-path.ts";
import { SKILL_NAME_PATTERN, TOOL_ID_PATTERN } from "./names.ts";
import type { Skill } from "./skill.ts";

/** Access a run's planner or workers have to a memory store. */
export type MemoryMode = "rw" | "ro" | "none";

/** A named memory store mounted in addition to the workflow and org stores. */
export type AttachedMemory = { readonly id: string; readonly mode: Exclude<MemoryMode, "none"> };

export type MemoryConfig = {
  readonly workflow: MemoryMode;
  readonly org: MemoryMode;
  readonly attached: readonly AttachedMemory[];
};

/**
 * What code.run steps may receive besides their input. `env` names secrets of the workflow's
 * `secrets`; a step whose LWIR says `sandbox.env: "allow"` gets those its version's
 * `permissions.secrets` also lists, as `run({ input, env })`, decrypted at run time and redacted
 * from the log like a tool's secrets. Nothing else of the Worker's or the container's environment
 * ever reaches code.
 *
 * @example
 * defineWorkflow({ ...definition, secrets: ["WEATHER_KEY"], network: ["api.weather.example"], sandbox: { env: ["WEATHER_KEY"] } })
 */
export type SandboxConfig = { readonly env?: readonly string[] };

/** Records one finding of `defineWorkflow`'s shape check. */
export type Fail = (path: string, code: string, message: string) => void;

const MEMORY_MODES: readonly MemoryMode[] = ["rw", "ro", "none"];
/** Mounted at `/mnt/memory/<name>` beside the attached stores, so no attached store may take these names. */
const RESERVED_MEMORY_NAMES = new Set(["workflow", "org"]);

/**
 * The configuration that acts at run time rather than at compile time: memory modes and attached
 * stores (each mounted at `/mnt/memory/<id>`), and the secrets code may receive.
 */
export function checkMemory(
  memory: (Partial<Omit<MemoryConfig, "attached">> & { readonly attached?: readonly AttachedMemory[] }) | undefined,
  fail: Fail,
): void {
  if (memory === undefined) return;
  for (const key of ["workflow", "org"] as const) {
    const mode = memory[key];
    if (mode !== undefined && !MEMORY_MODES.includes(mode))
      fail(`$.memory.${key}`, "definition.invalid_memory_mode", 'memory modes are "rw", "ro" or "none"');
  }
  const ids = new Set<string>();
  (memory.attached ?? []).forEach((m: AttachedMemory, i) => {
    const path = childPath("$.memory.attached", i);
    if (typeof m?.id !== "string" || !TOOL_ID_PATTERN.test(m.id) || ids.has(m.id))
      fail(path, "definition.invalid_memory_store", "attached stores need unique ids");
    else if (RESERVED_MEMORY_NAMES.has(m.id))
      fail(
        `${path}.id`,
        "definition.invalid_memory_store",
        `"${m.id}" is the name of a built-in store (/mnt/memory/${m.id}); configure it with memory.${m.id}`,
      );
    else ids.add(m.id);
    if (m?.mode !== "rw" && m?.mode !== "ro") fail(`${path}.mode`, "definition.invalid_memory_mode", 'attached stores are "rw" or "ro"');
  });
}

/** `sandbox.env` names secrets the workflow binds: code can only be given what the run decrypts anyway. */
export function checkSandbox(def: { readonly sandbox?: SandboxConfig; readonly secrets?: readonly string[] }, fail: Fail): void {
  if (def.sandbox === undefined) return;
  if (typeof def.sandbox !== "object" || def.sandbox === null) {
    fail("$.sandbox", "definition.invalid_sandbox", "sandbox is an object: { env?: [secret names] }");
    return;
  }
  const env = def.sandbox.env;
  if (env === undefined) return;
  if (!Array.isArray(env)) {
    fail("$.sandbox.env", "definition.invalid_sandbox", "sandbox.env lists names of the workflow's secrets");
    return;
  }
  const bound = new Set(Array.isArray(def.secrets) ? def.secrets : []);
  env.forEach((name: unknown, i) => {
    if (typeof name !== "string" || !bound.has(name))
      fail(
        childPath("$.sandbox.env", i),
        "definition.invalid_sandbox",
        `sandbox.env names only secrets the workflow binds (secrets: [...]); ${JSON.stringify(name)} is not one`,
      );
  });
}

/** Throws {@link HarnessUnknownError} when `planner.harness` or `worker.harness` names no registered harness. */
export function checkHarnesses(def: {
  readonly id: string;
  readonly planner: { readonly harness?: string };
  readonly worker?: { readonly harness?: string };
}): void {
  const unknown: HarnessRef[] = [];
  const planner = def.planner.harness;
  if (planner !== undefined && !isHarnessId(planner)) unknown.push({ path: "$.planner.harness", harnessId: String(planner) });
  const worker = def.worker?.harness;
  if (worker !== undefined && !isHarnessId(worker)) unknown.push({ path: "$.worker.harness", harnessId: String(worker) });
  if (unknown.length > 0) throw new HarnessUnknownError(def.id, unknown, HARNESS_IDS);
}

/** Skills (planner's or workers'): valid, unique names, a description and a body each. */
export function checkSkills(skills: readonly Skill[] | undefined, path: string, fail: Fail): void {
  if (skills === undefined) return;
  const names = new Set<string>();
  skills.forEach((s, i) => {
    const at = childPath(path, i);
    if (typeof s?.name !== "string" || !SKILL_NAME_PATTERN.test(s.name))
      fail(`${at}.name`, "definition.invalid_skill", "skill names are lowercase letters, digits and '-'");
    else if (names.has(s.name)) fail(`${at}.name`, "definition.duplicate_skill", `skill "${s.name}" is declared twice`);
    else names.add(s.name);
    if (typeof s?.description !== "string" || typeof s?.body !== "string")
      fail(at, "definition.invalid_skill", "a skill needs a description and a body");
  });
}
