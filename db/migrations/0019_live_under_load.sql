ALTER TABLE "media_nodes" ADD COLUMN "lagging_sessions" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "media_nodes" ADD COLUMN "overloaded" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "media_nodes" ADD COLUMN "machine" text;--> statement-breakpoint
ALTER TABLE "session_health_samples" ADD COLUMN "lag_s" real;--> statement-breakpoint
ALTER TABLE "session_health_samples" ADD COLUMN "dropped_renditions" text[];