ALTER TABLE `api_tokens` ADD `id` text;--> statement-breakpoint
ALTER TABLE `api_tokens` ADD `scopes` text DEFAULT 'runs:read runs:write approve admin' NOT NULL;--> statement-breakpoint
ALTER TABLE `api_tokens` ADD `expires_at` integer;--> statement-breakpoint
ALTER TABLE `api_tokens` ADD `revoked_at` integer;--> statement-breakpoint
ALTER TABLE `api_tokens` ADD `last_used_at` integer;--> statement-breakpoint
-- Tokens minted before ids existed get the id a new one would: tok_ + 16 hex of the digest.
UPDATE `api_tokens` SET `id` = 'tok_' || substr(`token_hash`, 8, 16) WHERE `id` IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `api_tokens_id` ON `api_tokens` (`id`);--> statement-breakpoint
CREATE INDEX `api_tokens_tenant` ON `api_tokens` (`tenant`);