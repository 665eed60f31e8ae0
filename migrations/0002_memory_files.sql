CREATE TABLE `memory_files` (
	`store_id` text NOT NULL,
	`path` text NOT NULL,
	`content` text NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`store_id`, `path`)
);
