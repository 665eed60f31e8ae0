import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** Definition projections, keyed by WorkflowDefinitionHash: written once, never updated. */
export const workflowDefinitions = sqliteTable(
  "workflow_definitions",
  {
    definitionHash: text("definition_hash").primaryKey(),
    workflowId: text("workflow_id").notNull(),
    canonicalizer: text("canonicalizer").notNull(),
    snapshotJson: text("snapshot_json").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("workflow_definitions_workflow_id").on(t.workflowId)],
);

/** Immutable WorkflowVersions: id is `wfver_` + 16 hex of the hash, both unique. */
export const workflowVersions = sqliteTable("workflow_versions", {
  id: text("id").primaryKey(),
  hash: text("hash").notNull().unique(),
  canonicalizer: text("canonicalizer").notNull(),
  canonicalJson: text("canonical_json").notNull(),
  createdAt: integer("created_at").notNull(),
  /**
   * When a run last registered it (epoch ms; null: not since this column came, read as
   * `created_at`). A version nothing references is deleted only once this is older than the grace
   * period (docs/runs.md, "Versions of deleted runs"), so a run registering it now keeps it.
   */
  lastUsedAt: integer("last_used_at"),
});

/** Compiler locks: one per (version, definition) pair, with the lock's own digest. */
export const compilerLocks = sqliteTable(
  "compiler_locks",
  {
    lockHash: text("lock_hash").primaryKey(),
    versionId: text("version_id")
      .notNull()
      .references(() => workflowVersions.id),
    definitionHash: text("definition_hash").notNull(),
    lockJson: text("lock_json").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("compiler_locks_version").on(t.versionId)],
);

/** Planner manifests by their hash, referenced from `harness.session.started`. */
export const plannerManifests = sqliteTable("planner_manifests", {
  manifestHash: text("manifest_hash").primaryKey(),
  definitionHash: text("definition_hash").notNull(),
  manifestJson: text("manifest_json").notNull(),
  createdAt: integer("created_at").notNull(),
});

/** The run index: one row per run, kept current by the run object. Run ids are per tenant. */
export const runs = sqliteTable(
  "runs",
  {
    tenant: text("tenant").notNull(),
    runId: text("run_id").notNull(),
    workflowId: text("workflow_id").notNull(),
    status: text("status").notNull(),
    /** Why a `waiting` run waits (`approval`, `sleep`, `trigger`); null for any other status. */
    waitReason: text("wait_reason"),
    triggerKind: text("trigger_kind").notNull(),
    definitionHash: text("definition_hash"),
    versionId: text("version_id"),
    causeCode: text("cause_code"),
    /** Where the run object lives: `{"jurisdiction":"eu"}` or `{}`; needed to address it again. */
    placement: text("placement").notNull().default("{}"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    /** The start's tags as JSON (`{"team":"billing"}`), for the list; null without tags. Queried through `run_tags`. */
    tags: text("tags"),
    /** The run's progress as of the row's last write (docs/runs.md, "Progress"); null before a plan exists. */
    stepsTotal: integer("steps_total"),
    stepsEnded: integer("steps_ended"),
  },
  (t) => [
    primaryKey({ columns: [t.tenant, t.runId] }),
    index("runs_tenant_created").on(t.tenant, t.createdAt),
    index("runs_tenant_workflow_status").on(t.tenant, t.workflowId, t.status),
    // The concurrent-runs quota counts a tenant's pending and running rows at each start.
    index("runs_tenant_status").on(t.tenant, t.status),
    index("runs_version").on(t.versionId),
    // Minted anchors are looked up by id alone, to refuse another tenant's before any effect.
    index("runs_run_id").on(t.runId),
  ],
);

/**
 * A run's tags, one row per tag, for `GET /v1/runs?tag=key:value` (several: every one must match).
 * Written with the run's first index write; a run's tags never change.
 */
export const runTags = sqliteTable(
  "run_tags",
  {
    tenant: text("tenant").notNull(),
    runId: text("run_id").notNull(),
    key: text("key").notNull(),
    value: text("value").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenant, t.runId, t.key] }), index("run_tags_tenant_key_value").on(t.tenant, t.key, t.value)],
);

/** API tokens, stored as their sha256 digest; each belongs to one tenant. */
export const apiTokens = sqliteTable(
  "api_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    tenant: text("tenant").notNull(),
    label: text("label"),
    createdAt: integer("created_at").notNull(),
    // `tok_` + 16 hex of the digest; nullable only because SQLite can't add a NOT NULL column
    // without a default: migration 0004 back-fills it and every insert sets it.
    id: text("id"),
    // Space-separated scopes. Tokens made before scopes existed could do everything: they keep it.
    scopes: text("scopes").notNull().default("runs:read runs:write approve admin"),
    expiresAt: integer("expires_at"),
    revokedAt: integer("revoked_at"),
    lastUsedAt: integer("last_used_at"),
  },
  (t) => [uniqueIndex("api_tokens_id").on(t.id), index("api_tokens_tenant").on(t.tenant)],
);

/**
 * Standard Webhooks deliveries, claimed once per signing secret: the first delivery of a
 * `webhook-id` binds it to the URL it reached (`target`) and the run it started; the same id
 * signed with the same secret is refused at any other URL. `secret_key` names the secret by a
 * digest, never its value.
 */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    secretKey: text("secret_key").notNull(),
    webhookId: text("webhook_id").notNull(),
    target: text("target").notNull(),
    workflowId: text("workflow_id").notNull(),
    tenant: text("tenant").notNull(),
    runId: text("run_id").notNull(),
    receivedAt: integer("received_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.secretKey, t.webhookId] })],
);

/** Memory stores (`workflow:<id>`, `org:<tenant>`): one row per file, mounted into bash sessions. */
export const memoryFiles = sqliteTable(
  "memory_files",
  {
    storeId: text("store_id").notNull(),
    path: text("path").notNull(),
    content: text("content").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.storeId, t.path] })],
);

/**
 * A tenant's approval of a definition hash, and the WorkflowVersion pinned for it (runs of an
 * approved, pinned definition skip the planner). The projection itself is `workflow_definitions`.
 */
export const definitionApprovals = sqliteTable(
  "definition_approvals",
  {
    tenant: text("tenant").notNull(),
    definitionHash: text("definition_hash").notNull(),
    workflowId: text("workflow_id").notNull(),
    approvedAt: integer("approved_at").notNull(),
    /**
     * The pinned version's full `sha256:` hash (runs look it up by it; its `wfver_` display id
     * derives from it). Pins made before versions were pinned by hash hold a `wfver_` id here.
     */
    pinnedVersionId: text("pinned_version_id"),
    pinnedAt: integer("pinned_at"),
  },
  (t) => [primaryKey({ columns: [t.tenant, t.definitionHash] }), index("definition_approvals_workflow").on(t.tenant, t.workflowId)],
);

/**
 * Every approval and revocation of a definition hash by a tenant, append-only: who asked (a token
 * id, `dev` or `admin`) and when. Written in the same transaction as the change it records.
 */
export const definitionApprovalAudit = sqliteTable(
  "definition_approval_audit",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tenant: text("tenant").notNull(),
    definitionHash: text("definition_hash").notNull(),
    workflowId: text("workflow_id").notNull(),
    action: text("action").notNull(),
    by: text("by"),
    at: integer("at").notNull(),
  },
  (t) => [index("definition_approval_audit_hash").on(t.tenant, t.definitionHash)],
);

/** Encrypted secrets (AES-GCM; the key is a Worker secret, never stored): ciphertext and IV as base64. */
export const secrets = sqliteTable(
  "secrets",
  {
    tenant: text("tenant").notNull(),
    name: text("name").notNull(),
    ciphertext: text("ciphertext").notNull(),
    iv: text("iv").notNull(),
    /** Which key encrypted it (a digest prefix of the key), so a rotated key fails by name. */
    keyId: text("key_id").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenant, t.name] })],
);

/**
 * Restarts and forks by the run they were started from (docs/runs.md, "Restart and forks"): the new
 * run names its source in its own log; an ended source's log takes no more events, so the other
 * direction lives here. Written once per new run, after its start.
 */
export const runLinks = sqliteTable(
  "run_links",
  {
    tenant: text("tenant").notNull(),
    sourceRunId: text("source_run_id").notNull(),
    runId: text("run_id").notNull(),
    relation: text("relation").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenant, t.sourceRunId, t.runId] })],
);

/**
 * Deleted runs (docs/runs.md, "Retention and deletion"): what is left of a run after its data is
 * purged, so its id is never reused and every route answers 410 `run_deleted`. `state` is
 * `pending` from before the purge starts until everything is gone (a crash in between leaves it
 * pending: the next DELETE or the cron finishes the job), then `done`. Holds no input or output.
 */
export const runTombstones = sqliteTable(
  "run_tombstones",
  {
    tenant: text("tenant").notNull(),
    runId: text("run_id").notNull(),
    workflowId: text("workflow_id").notNull(),
    /** Where the run object lived (`{"jurisdiction":"eu"}` or `{}`): a resumed purge addresses it again. */
    placement: text("placement").notNull().default("{}"),
    state: text("state").notNull(),
    /** Who deleted it: a token id (`tok_…`), `dev`, `admin`, `retention` or `bulk:<job id>`. */
    by: text("by").notNull(),
    deletedAt: integer("deleted_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenant, t.runId] }), index("run_tombstones_state").on(t.state)],
);

/** A tenant's retention override (days; set through the admin API), instead of `LITTLE_RETENTION_DAYS`. */
export const tenantRetention = sqliteTable("tenant_retention", {
  tenant: text("tenant").primaryKey(),
  /** Ended runs older than this many days are deleted by the cron; null: keep forever. */
  days: integer("days"),
  updatedAt: integer("updated_at").notNull(),
});
