CREATE TABLE `definition_approval_audit` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant` text NOT NULL,
	`definition_hash` text NOT NULL,
	`workflow_id` text NOT NULL,
	`action` text NOT NULL,
	`by` text,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `definition_approval_audit_hash` ON `definition_approval_audit` (`tenant`,`definition_hash`);