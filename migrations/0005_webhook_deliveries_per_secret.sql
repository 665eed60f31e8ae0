PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_webhook_deliveries` (
	`secret_key` text NOT NULL,
	`webhook_id` text NOT NULL,
	`target` text NOT NULL,
	`workflow_id` text NOT NULL,
	`tenant` text NOT NULL,
	`run_id` text NOT NULL,
	`received_at` integer NOT NULL,
	PRIMARY KEY(`secret_key`, `webhook_id`)
);
--> statement-breakpoint
-- Old rows are keyed by workflow, not by secret, and can't be re-keyed: they are dropped. A replay
-- of one is refused by the signature's timestamp check once its 5-minute tolerance has passed.
DROP TABLE `webhook_deliveries`;--> statement-breakpoint
ALTER TABLE `__new_webhook_deliveries` RENAME TO `webhook_deliveries`;--> statement-breakpoint
PRAGMA foreign_keys=ON;