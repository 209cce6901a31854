DROP INDEX "view_hours_playback_idx";--> statement-breakpoint
DROP INDEX "views_playback_started_idx";--> statement-breakpoint
ALTER TABLE "view_hours" ADD COLUMN "dims_hash" bigint GENERATED ALWAYS AS (hashtextextended(browser || E'\x1f' || browser_engine || E'\x1f' || os || E'\x1f' || device_type || E'\x1f' || device || E'\x1f' || country || E'\x1f' || continent || E'\x1f' || timezone, 0)) STORED;--> statement-breakpoint
ALTER TABLE "views" ADD COLUMN "dims_hash" bigint GENERATED ALWAYS AS (hashtextextended(browser || E'\x1f' || browser_engine || E'\x1f' || os || E'\x1f' || device_type || E'\x1f' || device || E'\x1f' || country || E'\x1f' || continent || E'\x1f' || timezone, 0)) STORED;--> statement-breakpoint
CREATE INDEX "view_hours_playback_dims_idx" ON "view_hours" USING btree ("playback_id","hour","dims_hash");--> statement-breakpoint
CREATE INDEX "views_playback_dims_started_idx" ON "views" USING btree ("playback_id","dims_hash","started_at");