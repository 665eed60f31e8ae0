CREATE TABLE `run_tags` (
	`tenant` text NOT NULL,
	`run_id` text NOT NULL,
	`key` text NOT NULL,
	`value` text NOT NULL,
	PRIMARY KEY(`tenant`, `run_id`, `key`)
);
--> statement-breakpoint
CREATE INDEX `run_tags_tenant_key_value` ON `run_tags` (`tenant`,`key`,`value`);--> statement-breakpoint
ALTER TABLE `runs` ADD `tags` text;--> statement-breakpoint
ALTER TABLE `runs` ADD `steps_total` integer;--> statement-breakpoint
ALTER TABLE `runs` ADD `steps_ended` integer;