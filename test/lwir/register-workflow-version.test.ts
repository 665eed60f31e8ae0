import { beforeAll, describe, expect, it } from "vitest";
import { LEGACY_LWIR_VALIDATOR_ID, LWIR_VALIDATOR_ID } from "../../src/identity/compiler-lock.ts";
import type { DefinitionCapabilities } from "../../src/identity/definition-snapshot.ts";
import { CANONICALIZER_ID, canonicalJson } from "../../src/json/canonical-json.ts";
import { digestJson } from "../../src/json/digest.ts";
import { compileAndLock, registerWorkflowVersion } from "../../src/lwir/register-workflow-version.ts";
import { LittleError } from "../../src/sdk/errors/little-error.ts";
import { LwirInvalidError } from "../../src/sdk/errors/lwir-invalid-error.ts";
import {
  boundSeedLwir,
  clone,
  get,
  lookupCapabilities,
  reverseKeys,
  seedLwir,
  seedWithComputeScore,
  set,
  summarizeCapabilities,
} from "./fixtures.ts";

/** An independent oracle: sorted-key JSON (equal to JCS for documents without non-integer numbers) hashed with WebCrypto. */
async function oracleDigest(value: unknown): Promise<string> {
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (typeof v === "object" && v !== null) {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  const bytes = new TextEncoder().encode(JSON.stringify(sorted(value)));
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return `sha256:${[...hash].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("registerWorkflowVersion", () => {
  it("content-addresses the seed: wfver_ + 16 hex of sha256(canonicalJson(lwir))", async () => {
    const lwir = seedLwir();
    const version = registerWorkflowVersion(lwir);
    expect(version.id).toMatch(/^wfver_[0-9a-f]{16}$/);
    expect(version.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(version.hash).toBe(digestJson(lwir));
    expect(version.hash).toBe(await oracleDigest(lwir));
    expect(version.id).toBe(`wfver_${version.hash.slice("sha256:".length, "sha256:".length + 16)}`);
    expect(version.canonicalizer).toBe("little-workflow-canonical-json@alpha");
    expect(version.canonicalizer).toBe(CANONICALIZER_ID);
    expect(version.canonicalJson).toBe(canonicalJson(lwir));
    expect(version.canonicalJson.startsWith('{"apiVersion":"littleworkflow.dev/v0.1","input":{"schema":{"properties":')).toBe(true);
    expect(JSON.parse(version.canonicalJson)).toEqual(lwir);
    expect(version.lwir).toEqual(lwir);
  });

  it("the returned lwir is a copy: mutating the input afterwards does not change the version", () => {
    const lwir = seedLwir();
    const version = registerWorkflowVersion(lwir);
    set(lwir, ["metadata", "version"], "9.9.9");
    expect(version.lwir).toEqual(seedLwir());
    expect(JSON.parse(version.canonicalJson)).toEqual(seedLwir());
  });

  it("equal LWIR with permuted keys gives the identical version", () => {
    const a = registerWorkflowVersion(seedWithComputeScore());
    const b = registerWorkflowVersion(reverseKeys(seedWithComputeScore()));
    expect(JSON.stringify(reverseKeys(seedWithComputeScore()))).not.toBe(JSON.stringify(seedWithComputeScore()));
    expect(b).toEqual(a);
  });

  it("a one-character change gives a different id", () => {
    const base = registerWorkflowVersion(seedLwir());
    const prompt = get(seedLwir(), ["steps", 0, "with", "prompt"]) as string;
    const changed = [
      set(seedLwir(), ["steps", 0, "with", "prompt"], prompt.replace("Summarize", "summarize")),
      set(seedLwir(), ["metadata", "version"], "0.1.1"),
      set(seedLwir(), ["metadata", "description"], "Summarize a support ticket and classify severity!"),
    ].map(registerWorkflowVersion);
    expect(new Set([base.id, ...changed.map((v) => v.id)]).size).toBe(4);
    for (const v of changed) expect(v.hash).not.toBe(base.hash);
  });

  it("needs: [] and a missing needs are different versions of the same graph", () => {
    // Both spellings validate; the hash covers the bytes, so they are two versions.
    const explicit = registerWorkflowVersion(set(seedWithComputeScore(), ["steps", 0, "needs"], []));
    expect(explicit.id).not.toBe(registerWorkflowVersion(seedWithComputeScore()).id);
  });

  it("warnings do not block registration", () => {
    const version = registerWorkflowVersion(set(seedLwir(), ["steps", 0, "with", "prompt"], "{{ input.priority }}"));
    expect(version.id).toMatch(/^wfver_[0-9a-f]{16}$/);
  });

  it("invalid LWIR throws LwirInvalidError (code lwir_invalid) carrying the findings", () => {
    const error = thrown(() => registerWorkflowVersion(set(seedLwir(), ["steps", 0, "with", "model"], "gpt-5")));
    expect(error).toBeInstanceOf(LwirInvalidError);
    expect(LittleError.is(error)).toBe(true);
    const e = error as LwirInvalidError;
    expect(e.code).toBe("lwir_invalid");
    expect(e.findings.map(({ code, path }) => ({ code, path }))).toEqual([
      { code: "step.model_not_permitted", path: "$.steps[0].with.model" },
    ]);
    expect(e.message).toContain("step.model_not_permitted at $.steps[0].with.model");
    expect(e.toJSON()).toEqual({ code: "lwir_invalid", message: e.message });
  });

  it("junk throws LwirInvalidError, never anything else", () => {
    for (const junk of [null, undefined, 1, "x", [], {}, Number.NaN, { steps: {} }]) {
      expect(() => registerWorkflowVersion(junk)).toThrow(LwirInvalidError);
    }
  });
});

describe("compileAndLock", () => {
  let caps: DefinitionCapabilities;
  beforeAll(async () => {
    caps = await summarizeCapabilities();
  });

  it("locks the seed with exactly the Stage 8 fields", () => {
    const lwir = boundSeedLwir();
    const { version, lock, lockHash } = compileAndLock(lwir, caps);
    expect(Object.keys(lock).sort()).toEqual(
      [
        "workflowVersionId",
        "workflowVersionHash",
        "lwirVersionId",
        "lwirHash",
        "workflowDefinitionHash",
        "inputSchemaHash",
        "requestedOutput",
        "requestedOutputHash",
        "capabilityManifest",
        "capabilityManifestHash",
        "modelSlots",
        "tools",
        "validationHash",
      ].sort(),
    );
    expect(version).toEqual(registerWorkflowVersion(lwir));
    expect(lock.workflowVersionId).toBe(version.id);
    expect(lock.lwirVersionId).toBe(version.id);
    expect(lock.workflowVersionHash).toBe(version.hash);
    expect(lock.lwirHash).toBe(digestJson(lwir));
    expect(lock.workflowDefinitionHash).toBe(caps.definitionHash);
    expect(lock.inputSchemaHash).toBe(caps.snapshot.inputSchemaHash);
    expect(lock.requestedOutput).toEqual({ mode: "object", schema: caps.outputSchema });
    expect(lock.requestedOutputHash).toBe(digestJson(lock.requestedOutput));
    expect(lock.capabilityManifestHash).toBe(digestJson(lock.capabilityManifest));
    expect(lock.capabilityManifest.workflowDefinitionHash).toBe(caps.definitionHash);
    expect(lock.capabilityManifest.secrets).toEqual([]);
    expect(lock.capabilityManifest.network).toEqual([]);
    expect(lock.capabilityManifest.memoryStoreIds).toEqual(["workflow:support.summarize-ticket", "org"]);
    expect(lock.tools).toEqual([]);
    expect(lock.validationHash).toBe(
      digestJson({ validator: LWIR_VALIDATOR_ID, lwirHash: version.hash, definitionHash: caps.definitionHash, findings: [] }),
    );
    expect(lockHash).toBe(digestJson(lock));
  });

  it("lock.modelSlots holds only the permitted slots", () => {
    const { lock } = compileAndLock(boundSeedLwir(), caps);
    expect(lock.modelSlots).toEqual([
      {
        id: "gpt-4o-mini",
        providerId: "openai.responses",
        modelId: "gpt-4o-mini",
        description: "Fast model for short structured outputs.",
      },
    ]);
    expect(lock.capabilityManifest.modelSlots).toEqual(lock.modelSlots);
    const both = compileAndLock(set(boundSeedLwir(), ["permissions", "models"], ["gpt-4o-mini", "gpt-5"]), caps);
    expect(both.lock.modelSlots.map((s) => s.id).sort()).toEqual(["gpt-4o-mini", "gpt-5"]);
  });

  it("locks only the permitted tools, with their descriptor hashes", async () => {
    const lookupCaps = await lookupCapabilities();
    const lwir = set(boundSeedLwir(), ["permissions", "tools"], ["crm.lookup"]);
    (lwir.steps as unknown[]).unshift({
      id: "lookup",
      uses: "tool.call",
      with: { tool: "crm.lookup", input: { ticket: "{{ input.ticketId }}" } },
      output: { mode: "json" },
    });
    set(lwir, ["steps", 1, "needs"], ["lookup"]);
    const { lock } = compileAndLock(lwir, lookupCaps);
    expect(lock.tools).toEqual(lookupCaps.snapshot.tools);
    expect(lock.capabilityManifest.tools).toEqual([{ id: "crm.lookup", descriptorHash: lookupCaps.snapshot.tools[0]?.descriptorHash }]);
    expect(compileAndLock(boundSeedLwir(), lookupCaps).lock.tools).toEqual([]);
  });

  it("is deterministic: the same LWIR in any key order gives the same lock and lock hash", () => {
    const a = compileAndLock(boundSeedLwir(), caps);
    const b = compileAndLock(reverseKeys(boundSeedLwir()), caps);
    expect(b.lock).toEqual(a.lock);
    expect(b.lockHash).toBe(a.lockHash);
  });

  it("warnings are recorded in the validation hash, not refused", () => {
    const lwir = set(boundSeedLwir(), ["steps", 0, "with", "prompt"], "{{ input.priority }}");
    const { lock, version, findings } = compileAndLock(lwir, caps);
    // The input schema allows other fields (zod's input form), so the type pass warns.
    expect(findings.map(({ code, severity }) => ({ code, severity }))).toEqual([{ code: "template.unknown_field", severity: "warning" }]);
    expect(lock.validationHash).not.toBe(compileAndLock(boundSeedLwir(), caps).lock.validationHash);
    expect(lock.validationHash).not.toBe(
      digestJson({ validator: LWIR_VALIDATOR_ID, lwirHash: version.hash, definitionHash: caps.definitionHash, findings: [] }),
    );
  });

  it("a run on validator @1 re-derives the lock it had before the type pass existed; @2 judges anew", () => {
    const legacy: DefinitionCapabilities = { ...caps, lwirValidator: LEGACY_LWIR_VALIDATOR_ID };
    const lwir = set(boundSeedLwir(), ["steps", 0, "with", "prompt"], "{{ input.priority }}");
    const old = compileAndLock(lwir, legacy);
    // Exactly what @1 recorded: its own warning, under its own id.
    expect(old.findings.map((f) => f.code)).toEqual(["template.unknown_input_field"]);
    expect(old.lock.validationHash).toBe(
      digestJson({
        validator: LEGACY_LWIR_VALIDATOR_ID,
        lwirHash: old.version.hash,
        definitionHash: caps.definitionHash,
        findings: old.findings,
      }),
    );
    expect(compileAndLock(lwir, caps).lockHash).not.toBe(old.lockHash);
    // A plan @2 refuses (the whole input object as the prompt) still locks under @1, as it did.
    const typed = set(boundSeedLwir(), ["steps", 0, "with", "prompt"], "{{ input }}");
    expect(compileAndLock(typed, legacy).findings).toEqual([]);
    expect(() => compileAndLock(typed, caps)).toThrow(LwirInvalidError);
  });

  it("throws LwirInvalidError with the binding findings when binding fails", () => {
    const error = thrown(() => compileAndLock(set(boundSeedLwir(), ["metadata", "name"], "support.other"), caps));
    expect(error).toBeInstanceOf(LwirInvalidError);
    expect((error as LwirInvalidError).code).toBe("lwir_invalid");
    expect((error as LwirInvalidError).findings.map(({ code, path }) => ({ code, path }))).toEqual([
      { code: "binding.workflow_name_mismatch", path: "$.metadata.name" },
    ]);
  });

  it("throws with the structural findings only when the document is invalid (binding does not run)", () => {
    const lwir = set(boundSeedLwir(), ["metadata", "name"], "Not A Name");
    const error = thrown(() => compileAndLock(lwir, caps)) as LwirInvalidError;
    expect(error).toBeInstanceOf(LwirInvalidError);
    expect(error.findings.map((f) => f.code)).toEqual(["metadata.invalid_name"]);
  });

  it("does not lock against another definition's capabilities", async () => {
    const lookupCaps = await lookupCapabilities();
    const a = compileAndLock(boundSeedLwir(), caps);
    const b = compileAndLock(boundSeedLwir(), lookupCaps);
    expect(b.version.id).toBe(a.version.id);
    expect(b.lock.workflowDefinitionHash).not.toBe(a.lock.workflowDefinitionHash);
    expect(b.lockHash).not.toBe(a.lockHash);
  });

  it("does not mutate its input", () => {
    const lwir = boundSeedLwir();
    const before = clone(lwir);
    compileAndLock(lwir, caps);
    expect(lwir).toEqual(before);
  });
});
