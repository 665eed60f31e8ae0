import { beforeAll, describe, expect, it } from "vitest";
import { summarizeTicket } from "../../src/examples/support-summarize-ticket.ts";
import type { CompilerLock } from "../../src/identity/compiler-lock.ts";
import {
  type DefinitionCapabilities,
  snapshotDefinition,
  type WorkflowDefinitionSnapshot,
} from "../../src/identity/definition-snapshot.ts";
import { manifestHash, plannerManifest } from "../../src/identity/planner-manifest.ts";
import { contentAddress, type WorkflowVersion } from "../../src/identity/workflow-version.ts";
import { type Digest, digestJson } from "../../src/json/digest.ts";
import { compileAndLock } from "../../src/lwir/register-workflow-version.ts";
import type { VersionStore } from "../../src/ports/version-store.ts";

/** Makes the store under test. Stores may share data between tests, so every test uses its own keys. */
export type MakeVersionStore = () => VersionStore | Promise<VersionStore>;

function nonce(): string {
  return crypto.randomUUID().replaceAll("-", "");
}

/** A digest no other test (or run of this suite) uses. */
function uniqueDigest(): Digest {
  return `sha256:${nonce()}${nonce()}`;
}

/** A `wfver_` id no other test uses. */
function uniqueVersionId(): WorkflowVersion["id"] {
  return `wfver_${nonce().slice(0, 16)}`;
}

/**
 * Valid LWIR bound to the definition's capabilities (the seed's single summarize step, with the
 * schemas copied from the capabilities as a real planner does). `tag` goes into the description,
 * so each tag gives its own version.
 */
function lwirFor(caps: DefinitionCapabilities, tag: string): Record<string, unknown> {
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: caps.snapshot.id, version: "0.1.0", description: `Summarize a support ticket and classify severity (${tag}).` },
    input: { schema: caps.inputSchema },
    output: { schema: caps.outputSchema },
    permissions: { models: ["gpt-4o-mini"], tools: [], secrets: [], network: [] },
    steps: [
      {
        id: "summarize",
        uses: "ai.generate",
        needs: [],
        with: {
          model: "gpt-4o-mini",
          prompt:
            "Summarize ticket {{ input.ticketId }} based on this transcript:\n{{ input.transcript }}\nReturn a 1-2 sentence summary and a severity from low|medium|high.",
        },
        output: { mode: "object", schema: caps.outputSchema },
      },
    ],
  };
}

/**
 * The contract every {@link VersionStore} adapter keeps. Call once per adapter with a factory for
 * the store under test.
 */
export function versionStoreContract(name: string, makeStore: MakeVersionStore): void {
  describe(`VersionStore contract: ${name}`, () => {
    let caps: DefinitionCapabilities;
    let store: VersionStore;

    beforeAll(async () => {
      caps = await snapshotDefinition(summarizeTicket, {});
    });

    // A fresh store object per test (the data behind it may be shared; keys are unique per test).
    const fresh = async () => {
      store = await makeStore();
      return store;
    };

    describe("definitions", () => {
      it("round-trips the real definition snapshot under its hash", async () => {
        await fresh();
        await store.putDefinition(caps.snapshot, caps.definitionHash, 1_000);
        const read = await store.getDefinition(caps.definitionHash);
        expect(read).toEqual(caps.snapshot);
        expect(digestJson(read)).toBe(caps.definitionHash);
      });

      it("round-trips a snapshot under a key no other test uses", async () => {
        await fresh();
        const snapshot: WorkflowDefinitionSnapshot = { ...caps.snapshot, id: `support.contract-${nonce()}`, maxOuterCycles: 3 };
        const hash = digestJson(snapshot);
        expect(await store.getDefinition(hash)).toBeNull();
        await store.putDefinition(snapshot, hash, 2_000);
        expect(await store.getDefinition(hash)).toEqual(snapshot);
      });

      it("writes several projections at once, keeping rows already there (an empty list writes nothing)", async () => {
        await fresh();
        const one: WorkflowDefinitionSnapshot = { ...caps.snapshot, id: `support.batch-${nonce()}` };
        const two: WorkflowDefinitionSnapshot = { ...caps.snapshot, id: `support.batch-${nonce()}` };
        await store.putDefinition(one, digestJson(one), 1_000);
        await store.putDefinitions(
          [
            { snapshot: one, definitionHash: digestJson(one) },
            { snapshot: two, definitionHash: digestJson(two) },
          ],
          2_000,
        );
        expect(await store.getDefinition(digestJson(one))).toEqual(one);
        expect(await store.getDefinition(digestJson(two))).toEqual(two);
        await expect(store.putDefinitions([], 3_000)).resolves.toBeUndefined();
      });

      it("writing the same hash twice is idempotent: no error, the first write is kept", async () => {
        await fresh();
        const key = uniqueDigest();
        const first: WorkflowDefinitionSnapshot = { ...caps.snapshot, id: `support.first-${nonce()}` };
        const second: WorkflowDefinitionSnapshot = { ...caps.snapshot, id: `support.second-${nonce()}`, description: "changed" };
        await store.putDefinition(first, key, 1_000);
        await expect(store.putDefinition(first, key, 1_001)).resolves.toBeUndefined();
        await expect(store.putDefinition(second, key, 1_002)).resolves.toBeUndefined();
        expect(await store.getDefinition(key)).toEqual(first);
        // The real snapshot twice, under its real hash, too.
        await store.putDefinition(caps.snapshot, caps.definitionHash, 3_000);
        await expect(store.putDefinition(caps.snapshot, caps.definitionHash, 3_001)).resolves.toBeUndefined();
        expect(await store.getDefinition(caps.definitionHash)).toEqual(caps.snapshot);
      });

      it("reads are copies: mutating what was written or read does not change the stored snapshot", async () => {
        await fresh();
        const snapshot = structuredClone({ ...caps.snapshot, id: `support.copy-${nonce()}` }) as {
          -readonly [K in keyof WorkflowDefinitionSnapshot]: WorkflowDefinitionSnapshot[K];
        };
        const expected = structuredClone(snapshot);
        const hash = digestJson(snapshot);
        await store.putDefinition(snapshot, hash, 1_000);
        snapshot.description = "mutated after write";
        const read = (await store.getDefinition(hash)) as { description: string };
        read.description = "mutated after read";
        expect(await store.getDefinition(hash)).toEqual(expected);
      });

      it("an unknown hash reads as null", async () => {
        await fresh();
        expect(await store.getDefinition(uniqueDigest())).toBeNull();
      });
    });

    describe("versions", () => {
      it("round-trips a content-addressed WorkflowVersion: identical canonicalJson, deep-equal lwir", async () => {
        await fresh();
        const lwir = lwirFor(caps, nonce());
        const version = contentAddress(lwir);
        expect(await store.getVersionById(version.id)).toBeNull();
        await store.putVersion(version, 1_000);
        const read = await store.getVersionById(version.id);
        expect(read).not.toBeNull();
        expect(read?.canonicalJson).toBe(version.canonicalJson);
        expect(read?.lwir).toEqual(lwir);
        expect(read?.id).toBe(version.id);
        expect(read?.hash).toBe(version.hash);
        expect(read?.canonicalizer).toBe(version.canonicalizer);
        expect(read).toEqual(version);
        expect(await store.getVersionByHash(version.hash)).toEqual(version);
        // What was read re-addresses to the same version.
        expect(contentAddress(read?.lwir)).toEqual(version);
      });

      it("writing the same version twice is idempotent", async () => {
        await fresh();
        const version = contentAddress(lwirFor(caps, nonce()));
        await store.putVersion(version, 1_000);
        await expect(store.putVersion(version, 2_000)).resolves.toBeUndefined();
        expect(await store.getVersionById(version.id)).toEqual(version);
      });

      it("a second write under the same id with another full hash is refused by name; the first stays, the other is never served", async () => {
        await fresh();
        const version = contentAddress(lwirFor(caps, nonce()));
        const other = contentAddress(lwirFor(caps, nonce()));
        await store.putVersion(version, 1_000);
        await expect(store.putVersion({ ...other, id: version.id }, 2_000)).rejects.toMatchObject({
          code: "version_id_collision",
          versionId: version.id,
          storedHash: version.hash,
          givenHash: other.hash,
        });
        expect(await store.getVersionById(version.id)).toEqual(version);
        expect(await store.getVersionById(other.id)).toBeNull();
        expect(await store.getVersionByHash(other.hash)).toBeNull();
      });

      it("looks versions up by full hash: the exact document, or null", async () => {
        await fresh();
        const version = contentAddress(lwirFor(caps, nonce()));
        expect(await store.getVersionByHash(version.hash)).toBeNull();
        await store.putVersion(version, 1_000);
        expect(await store.getVersionByHash(version.hash)).toEqual(version);
        expect(await store.getVersionByHash(uniqueDigest())).toBeNull();
      });

      it("registering a version whose id another full hash holds writes nothing: no lock, no manifest", async () => {
        await fresh();
        const first = compileAndLock(lwirFor(caps, nonce()), caps);
        const second = compileAndLock(lwirFor(caps, nonce()), caps);
        await store.registerVersion({ version: first.version, lock: first.lock, lockHash: first.lockHash, at: 1_000 });
        const manifest = plannerManifest(caps.snapshot, caps.definitionHash, uniqueDigest());
        const collidingEntry = {
          version: { ...second.version, id: first.version.id },
          lock: second.lock,
          lockHash: second.lockHash,
          manifest: { manifest, hash: manifestHash(manifest), definitionHash: caps.definitionHash },
          at: 2_000,
        };
        await expect(store.registerVersion(collidingEntry)).rejects.toMatchObject({ code: "version_id_collision" });
        expect(await store.getLock(second.lockHash)).toBeNull();
        expect(await store.getPlannerManifest(manifestHash(manifest))).toBeNull();
        expect(await store.getVersionByHash(first.version.hash)).toEqual(first.version);
      });

      it("a second write of the same hash under another id is a no-op (versions are content-addressed)", async () => {
        await fresh();
        const version = contentAddress(lwirFor(caps, nonce()));
        const alias = uniqueVersionId();
        await store.putVersion(version, 1_000);
        await expect(store.putVersion({ ...version, id: alias }, 2_000)).resolves.toBeUndefined();
        expect(await store.getVersionById(alias)).toBeNull();
        expect(await store.getVersionById(version.id)).toEqual(version);
      });

      it("an unknown id reads as null", async () => {
        await fresh();
        expect(await store.getVersionById(uniqueVersionId())).toBeNull();
        expect(await store.getVersionById("not-a-version-id")).toBeNull();
        expect(await store.getVersionByHash(uniqueDigest())).toBeNull();
      });
    });

    describe("compiler locks", () => {
      it("registers a version, its lock and its planner manifest together, idempotently", async () => {
        await fresh();
        const locked = compileAndLock(lwirFor(caps, nonce()), caps);
        const manifest = plannerManifest(caps.snapshot, caps.definitionHash, uniqueDigest());
        const hash = manifestHash(manifest);
        const entry = { version: locked.version, lock: locked.lock, lockHash: locked.lockHash, at: 5_000 };
        await store.registerVersion({ ...entry, manifest: { manifest, hash, definitionHash: caps.definitionHash } });
        await expect(store.registerVersion(entry)).resolves.toBeUndefined();
        expect((await store.getVersionById(locked.version.id))?.hash).toBe(locked.version.hash);
        expect(await store.locksOf(locked.version.id)).toEqual([
          { lockHash: locked.lockHash, definitionHash: caps.definitionHash, lock: locked.lock },
        ]);
        expect(await store.getPlannerManifest(hash)).toEqual(manifest);
      });

      it("round-trips a lock from compileAndLock", async () => {
        await fresh();
        const locked = compileAndLock(lwirFor(caps, nonce()), caps);
        expect(locked.lock.workflowDefinitionHash).toBe(caps.definitionHash);
        expect(await store.getLock(locked.lockHash)).toBeNull();
        await store.putVersion(locked.version, 1_000);
        await store.putLock(locked.lock, locked.lockHash, 1_000);
        const read = await store.getLock(locked.lockHash);
        expect(read).toEqual(locked.lock);
        expect(digestJson(read)).toBe(locked.lockHash);
        expect(await store.getVersionById(locked.lock.workflowVersionId)).toEqual(locked.version);
      });

      it("writing the same lock hash twice is idempotent: the first lock is kept", async () => {
        await fresh();
        const locked = compileAndLock(lwirFor(caps, nonce()), caps);
        const tampered: CompilerLock = { ...locked.lock, validationHash: uniqueDigest() };
        await store.putVersion(locked.version, 1_000);
        await store.putLock(locked.lock, locked.lockHash, 1_000);
        await expect(store.putLock(locked.lock, locked.lockHash, 2_000)).resolves.toBeUndefined();
        await expect(store.putLock(tampered, locked.lockHash, 3_000)).resolves.toBeUndefined();
        expect(await store.getLock(locked.lockHash)).toEqual(locked.lock);
      });

      it("an unknown lock hash reads as null", async () => {
        await fresh();
        expect(await store.getLock(uniqueDigest())).toBeNull();
      });
    });

    describe("planner manifests", () => {
      it("round-trips the real manifest of the snapshot", async () => {
        await fresh();
        const manifest = plannerManifest(caps.snapshot, caps.definitionHash);
        const hash = manifestHash(manifest);
        await store.putPlannerManifest(manifest, hash, caps.definitionHash, 1_000);
        expect(await store.getPlannerManifest(hash)).toEqual(manifest);
      });

      it("round-trips a re-plan manifest (with an outer-loop context hash) under a key no other test uses", async () => {
        await fresh();
        const manifest = plannerManifest(caps.snapshot, caps.definitionHash, uniqueDigest());
        const hash = manifestHash(manifest);
        expect(await store.getPlannerManifest(hash)).toBeNull();
        await store.putPlannerManifest(manifest, hash, caps.definitionHash, 1_000);
        const read = await store.getPlannerManifest(hash);
        expect(read).toEqual(manifest);
        expect(read?.outerLoopContextHash).toBe(manifest.outerLoopContextHash);
        expect(manifestHash(read as NonNullable<typeof read>)).toBe(hash);
      });

      it("writing the same manifest hash twice is idempotent: the first manifest is kept", async () => {
        await fresh();
        const manifest = plannerManifest(caps.snapshot, caps.definitionHash, uniqueDigest());
        const hash = manifestHash(manifest);
        await store.putPlannerManifest(manifest, hash, caps.definitionHash, 1_000);
        await expect(store.putPlannerManifest(manifest, hash, caps.definitionHash, 2_000)).resolves.toBeUndefined();
        await expect(
          store.putPlannerManifest({ ...manifest, harnessId: "other-harness" }, hash, uniqueDigest(), 3_000),
        ).resolves.toBeUndefined();
        expect(await store.getPlannerManifest(hash)).toEqual(manifest);
      });

      it("an unknown hash reads as null", async () => {
        await fresh();
        expect(await store.getPlannerManifest(uniqueDigest())).toBeNull();
      });
    });
  });
}
