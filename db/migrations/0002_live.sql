ALTER TABLE "sessions" ADD COLUMN "ready_at" bigint;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "media_node_id" text;--> statement-breakpoint
ALTER TABLE "streams" ADD COLUMN "health" jsonb;