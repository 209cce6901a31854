CREATE TABLE "view_days_by_playback" (
	"day" bigint NOT NULL,
	"playback_id" text NOT NULL,
	"user_id" text NOT NULL,
	"content_id" text NOT NULL,
	"views" integer NOT NULL,
	"played_ms" bigint NOT NULL,
	"ttff_count" integer NOT NULL,
	"ttff_sum_ms" bigint NOT NULL,
	"ttff_histogram" integer[] NOT NULL,
	"rebuffer_ms" bigint NOT NULL,
	"errored" integer NOT NULL,
	"exits_before_start" integer NOT NULL,
	CONSTRAINT "view_days_by_playback_playback_id_day_pk" PRIMARY KEY("playback_id","day")
);
--> statement-breakpoint
CREATE INDEX "view_days_by_playback_user_idx" ON "view_days_by_playback" USING btree ("user_id","day");--> statement-breakpoint
-- The hours rolled up before this table, summed by day as lib/analytics/rollup.ts keeps it from now on.
INSERT INTO "view_days_by_playback" (day, playback_id, user_id, content_id, views, played_ms, ttff_count, ttff_sum_ms, ttff_histogram, rebuffer_ms, errored, exits_before_start)
SELECT hour - hour % 86400000, playback_id, min(user_id), min(content_id), sum(views), sum(played_ms), sum(ttff_count), sum(ttff_sum_ms), ARRAY[sum(ttff_histogram[1]), sum(ttff_histogram[2]), sum(ttff_histogram[3]), sum(ttff_histogram[4]), sum(ttff_histogram[5]), sum(ttff_histogram[6]), sum(ttff_histogram[7]), sum(ttff_histogram[8]), sum(ttff_histogram[9]), sum(ttff_histogram[10]), sum(ttff_histogram[11]), sum(ttff_histogram[12])]::int[], sum(rebuffer_ms), sum(errored), sum(exits_before_start)
FROM "view_hours_by_playback" GROUP BY hour - hour % 86400000, playback_id;
