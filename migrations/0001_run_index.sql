CREATE TABLE `runs` (
	`run_id` text PRIMARY KEY NOT NULL,
	`tenant` text NOT NULL,
	`workflow_id` text NOT NULL,
	`status` text NOT NULL,
	`trigger_kind` text NOT NULL,
	`definition_hash` text,
	`version_id` text,
	`cause_code` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `runs_tenant_created` ON `runs` (`tenant`,`created_at`);--> statement-breakpoint
CREATE INDEX `runs_workflow_status` ON `runs` (`workflow_id`,`status`);