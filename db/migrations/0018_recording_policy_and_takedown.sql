ALTER TABLE "assets" ADD COLUMN "purged_at" bigint;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "playback_policy" jsonb;--> statement-breakpoint
-- Ended sessions from before this column: their stream's policy now is the best there is.
UPDATE "sessions" SET "playback_policy" = "streams"."playback_policy" FROM "streams" WHERE "streams"."id" = "sessions"."parent_id" AND "sessions"."is_active" = false;
