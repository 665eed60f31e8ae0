CREATE TABLE `run_tombstones` (
	`tenant` text NOT NULL,
	`run_id` text NOT NULL,
	`workflow_id` text NOT NULL,
	`placement` text DEFAULT '{}' NOT NULL,
	`state` text NOT NULL,
	`by` text NOT NULL,
	`deleted_at` integer NOT NULL,
	PRIMARY KEY(`tenant`, `run_id`)
);
--> statement-breakpoint
CREATE INDEX `run_tombstones_state` ON `run_tombstones` (`state`);--> statement-breakpoint
CREATE TABLE `tenant_retention` (
	`tenant` text PRIMARY KEY NOT NULL,
	`days` integer,
	`updated_at` integer NOT NULL
);
