import { env } from "cloudflare:workers";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { D1VersionStore } from "../../../src/adapters/d1/d1-version-store.ts";
import { StoredArtifactTamperedError } from "../../../src/adapters/d1/stored-artifact-tampered-error.ts";
import { EnvModelResolver } from "../../../src/adapters/models/env-model-resolver.ts";
import { type Digest, digestJson } from "../../../src/json/digest.ts";
import { overrideWiring } from "../../../src/wiring.ts";
import { api } from "./support/api-call.ts";
import { Rng, reportFigure, tortureSeeds, tortureTimeout } from "./support/random.ts";

// Item 7 of the reliability suite, stored artifacts: single-character changes to the versions,
// locks, planner manifests and definition snapshots a real run wrote to D1, read back through the
// real adapter and the API. Every change must be refused with a named cause, never served.

const INPUT = { ticketId: "T-9", transcript: "Invoices are emailed twice since the migration." };

type Target = {
  name: string;
  table: string;
  column: string;
  keyColumn: string;
  key: () => string;
  read: (store: D1VersionStore) => Promise<unknown>;
  kind: StoredArtifactTamperedError["kind"];
};

let registered: { versionId: string; lockHash: Digest; definitionHash: Digest; manifestHash: Digest };

beforeEach(() => overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {} }) }));
afterEach(() => overrideWiring({}));

beforeAll(async () => {
  overrideWiring({ models: new EnvModelResolver({ mode: "offline", secrets: {} }) });
  const started = await api("POST", "/v1/workflows/support.summarize-ticket/runs?wait=30", {
    body: JSON.stringify({ input: INPUT, runId: `run_tamper_${crypto.randomUUID().slice(0, 8)}` }),
  });
  expect(started.status, started.text).toBe(200);
  const versionId = (started.json.run as { versionId: string }).versionId;
  const lock = await env.DB.prepare("SELECT lock_hash, definition_hash FROM compiler_locks WHERE version_id = ?")
    .bind(versionId)
    .first<{ lock_hash: Digest; definition_hash: Digest }>();
  const manifest = await env.DB.prepare("SELECT manifest_hash FROM planner_manifests WHERE definition_hash = ?")
    .bind(lock?.definition_hash)
    .first<{ manifest_hash: Digest }>();
  if (!lock || !manifest) throw new Error("the run registered no lock or manifest");
  registered = { versionId, lockHash: lock.lock_hash, definitionHash: lock.definition_hash, manifestHash: manifest.manifest_hash };
  overrideWiring({});
});

const TARGETS: Target[] = [
  {
    name: "version text",
    table: "workflow_versions",
    column: "canonical_json",
    keyColumn: "id",
    key: () => registered.versionId,
    read: (s) => s.getVersionById(registered.versionId),
    kind: "version",
  },
  {
    name: "version hash column",
    table: "workflow_versions",
    column: "hash",
    keyColumn: "id",
    key: () => registered.versionId,
    read: (s) => s.getVersionById(registered.versionId),
    kind: "version",
  },
  {
    name: "lock",
    table: "compiler_locks",
    column: "lock_json",
    keyColumn: "lock_hash",
    key: () => registered.lockHash,
    read: (s) => s.getLock(registered.lockHash),
    kind: "lock",
  },
  {
    name: "lock, listed with its version",
    table: "compiler_locks",
    column: "lock_json",
    keyColumn: "lock_hash",
    key: () => registered.lockHash,
    read: (s) => s.locksOf(registered.versionId),
    kind: "lock",
  },
  {
    name: "lock's definition column",
    table: "compiler_locks",
    column: "definition_hash",
    keyColumn: "lock_hash",
    key: () => registered.lockHash,
    read: (s) => s.locksOf(registered.versionId),
    kind: "lock",
  },
  {
    name: "planner manifest",
    table: "planner_manifests",
    column: "manifest_json",
    keyColumn: "manifest_hash",
    key: () => registered.manifestHash,
    read: (s) => s.getPlannerManifest(registered.manifestHash),
    kind: "planner_manifest",
  },
  {
    name: "definition snapshot",
    table: "workflow_definitions",
    column: "snapshot_json",
    keyColumn: "definition_hash",
    key: () => registered.definitionHash,
    read: (s) => s.getDefinition(registered.definitionHash),
    kind: "definition",
  },
];

/** The text with one character at a random place replaced by another printable ASCII character. */
function changeOneCharacter(rng: Rng, text: string): string {
  const i = rng.int(text.length);
  let c = text[i] as string;
  while (c === text[i]) c = String.fromCharCode(0x20 + rng.int(95));
  return text.slice(0, i) + c + text.slice(i + 1);
}

async function cell(t: Target): Promise<string> {
  const row = await env.DB.prepare(`SELECT ${t.column} AS v FROM ${t.table} WHERE ${t.keyColumn} = ?`).bind(t.key()).first<{ v: string }>();
  if (!row) throw new Error(`no row in ${t.table}`);
  return row.v;
}

const write = (t: Target, value: string) =>
  env.DB.prepare(`UPDATE ${t.table} SET ${t.column} = ? WHERE ${t.keyColumn} = ?`).bind(value, t.key()).run();

describe("stored artifacts changed in D1", () => {
  it(
    "every single-character change to a version, lock, manifest or definition is refused with a named cause",
    async () => {
      const store = new D1VersionStore(env.DB);
      const rng = new Rng(0xa54ff53a);
      const perTarget = tortureSeeds() * 5;
      const served: string[] = [];
      let tried = 0;
      let hashMismatchLeftToCaller = 0;
      for (const target of TARGETS) {
        const original = await cell(target);
        // Untampered, the read succeeds: the refusals below are not the adapter refusing everything.
        await expect(target.read(store)).resolves.toBeTruthy();
        for (let i = 0; i < perTarget; i++) {
          await write(target, changeOneCharacter(rng, original));
          tried++;
          try {
            const read = await target.read(store);
            // A definition is served when it still parses canonically; its consumer compares its hash.
            if (target.kind === "definition" && digestJson(read) !== target.key()) hashMismatchLeftToCaller++;
            else served.push(`${target.name}: served`);
          } catch (error) {
            if (!(error instanceof StoredArtifactTamperedError)) served.push(`${target.name}: ${String(error)}`);
            else expect(error.kind).toBe(target.kind);
          }
        }
        await write(target, original);
        await expect(target.read(store)).resolves.toBeTruthy();
      }
      reportFigure("tampering (D1 adapter)", {
        changes: tried,
        targets: TARGETS.length,
        servedOrUnnamed: served.length,
        definitionHashMismatchLeftToCaller: hashMismatchLeftToCaller,
      });
      expect(served).toEqual([]);
    },
    tortureTimeout(1500),
  );

  it(
    "the API refuses a changed version or lock with a 4xx stored_artifact_tampered, never a 500 or the changed text",
    async () => {
      const rng = new Rng(0x9b05688d);
      const count = tortureSeeds();
      const path = `/v1/versions/${registered.versionId}`;
      expect((await api("GET", path)).status).toBe(200);
      let tried = 0;
      for (const target of TARGETS.filter((t) => t.table === "workflow_versions" || t.table === "compiler_locks")) {
        const original = await cell(target);
        for (let i = 0; i < count; i++) {
          const changed = changeOneCharacter(rng, original);
          await write(target, changed);
          const r = await api("GET", path);
          tried++;
          expect(r.status, `${target.name}: ${r.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
          expect(r.status).toBeLessThan(500);
          expect(r.code).toBe("stored_artifact_tampered");
          expect(r.json.version).toBeUndefined();
        }
        await write(target, original);
      }
      expect((await api("GET", path)).status).toBe(200);
      reportFigure("tampering (API)", { changes: tried, served: 0, serverErrors: 0 });
    },
    tortureTimeout(1500),
  );
});
