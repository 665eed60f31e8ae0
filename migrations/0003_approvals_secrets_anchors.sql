CREATE TABLE `definition_approvals` (
	`tenant` text NOT NULL,
	`definition_hash` text NOT NULL,
	`workflow_id` text NOT NULL,
	`approved_at` integer NOT NULL,
	`pinned_version_id` text,
	`pinned_at` integer,
	PRIMARY KEY(`tenant`, `definition_hash`)
);
--> statement-breakpoint
CREATE INDEX `definition_approvals_workflow` ON `definition_approvals` (`tenant`,`workflow_id`);--> statement-breakpoint
CREATE TABLE `secrets` (
	`tenant` text NOT NULL,
	`name` text NOT NULL,
	`ciphertext` text NOT NULL,
	`iv` text NOT NULL,
	`key_id` text NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`tenant`, `name`)
);
--> statement-breakpoint
CREATE INDEX `runs_run_id` ON `runs` (`run_id`);