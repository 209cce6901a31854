-- Name search (ILIKE %…%) uses trigram indexes; pg_trgm is a trusted extension (PostgreSQL 13+), shipped with the embedded server.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "assets_user_duration_idx" ON "assets" USING btree ("user_id",coalesce(("video_spec"->>'duration')::double precision, 0),"id");--> statement-breakpoint
CREATE INDEX "assets_name_trgm_idx" ON "assets" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "sessions_user_last_seen_idx" ON "sessions" USING btree ("user_id",coalesce("last_seen", 0),"id");--> statement-breakpoint
CREATE INDEX "streams_user_last_seen_idx" ON "streams" USING btree ("user_id",coalesce("last_seen", 0),"id");--> statement-breakpoint
CREATE INDEX "streams_name_trgm_idx" ON "streams" USING gin ("name" gin_trgm_ops);