/**
 * Digests moved down to `src/json/` (below `schema/`, which hashes normalized schemas) to break the
 * schema ↔ identity loop; see docs/architecture.md. Re-exported here until the last importer
 * moves; new code imports `../json/digest.ts`.
 */
export * from "../json/digest.ts";
