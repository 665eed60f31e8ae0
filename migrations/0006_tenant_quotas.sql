CREATE TABLE `tenant_start_windows` (
	`tenant` text PRIMARY KEY NOT NULL,
	`window_start` integer NOT NULL,
	`starts` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `runs_tenant_status` ON `runs` (`tenant`,`status`);