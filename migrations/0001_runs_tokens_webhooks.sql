CREATE TABLE `api_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`tenant` text NOT NULL,
	`label` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `runs` (
	`tenant` text NOT NULL,
	`run_id` text NOT NULL,
	`workflow_id` text NOT NULL,
	`status` text NOT NULL,
	`trigger_kind` text NOT NULL,
	`definition_hash` text,
	`version_id` text,
	`cause_code` text,
	`placement` text DEFAULT '{}' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`tenant`, `run_id`)
);
--> statement-breakpoint
CREATE INDEX `runs_tenant_created` ON `runs` (`tenant`,`created_at`);--> statement-breakpoint
CREATE INDEX `runs_tenant_workflow_status` ON `runs` (`tenant`,`workflow_id`,`status`);--> statement-breakpoint
CREATE INDEX `runs_version` ON `runs` (`version_id`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`workflow_id` text NOT NULL,
	`webhook_id` text NOT NULL,
	`tenant` text NOT NULL,
	`run_id` text NOT NULL,
	`received_at` integer NOT NULL,
	PRIMARY KEY(`workflow_id`, `webhook_id`)
);
