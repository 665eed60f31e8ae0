CREATE TABLE `run_links` (
	`tenant` text NOT NULL,
	`source_run_id` text NOT NULL,
	`run_id` text NOT NULL,
	`relation` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`tenant`, `source_run_id`, `run_id`)
);
