-- Unlogged (written by hand): counters need no WAL, crash safety or replicas; a crash just resets them.
CREATE UNLOGGED TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" bigint NOT NULL,
	"hits" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "allowed_origins" text[];