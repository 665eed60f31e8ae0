import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";

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

/** The run index: one row per run, kept current by the run object. */
export const runs = sqliteTable(
  "runs",
  {
    runId: text("run_id").primaryKey(),
    tenant: text("tenant").notNull(),
    workflowId: text("workflow_id").notNull(),
    status: text("status").notNull(),
    triggerKind: text("trigger_kind").notNull(),
    definitionHash: text("definition_hash"),
    versionId: text("version_id"),
    causeCode: text("cause_code"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("runs_tenant_created").on(t.tenant, t.createdAt), index("runs_workflow_status").on(t.workflowId, t.status)],
);
