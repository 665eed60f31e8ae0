CREATE TABLE `compiler_locks` (
	`lock_hash` text PRIMARY KEY NOT NULL,
	`version_id` text NOT NULL,
	`definition_hash` text NOT NULL,
	`lock_json` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`version_id`) REFERENCES `workflow_versions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `compiler_locks_version` ON `compiler_locks` (`version_id`);--> statement-breakpoint
CREATE TABLE `planner_manifests` (
	`manifest_hash` text PRIMARY KEY NOT NULL,
	`definition_hash` text NOT NULL,
	`manifest_json` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `workflow_definitions` (
	`definition_hash` text PRIMARY KEY NOT NULL,
	`workflow_id` text NOT NULL,
	`canonicalizer` text NOT NULL,
	`snapshot_json` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `workflow_definitions_workflow_id` ON `workflow_definitions` (`workflow_id`);--> statement-breakpoint
CREATE TABLE `workflow_versions` (
	`id` text PRIMARY KEY NOT NULL,
	`hash` text NOT NULL,
	`canonicalizer` text NOT NULL,
	`canonical_json` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `workflow_versions_hash_unique` ON `workflow_versions` (`hash`);