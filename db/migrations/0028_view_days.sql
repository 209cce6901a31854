CREATE TABLE "view_days_by_dimension" (
	"day" bigint NOT NULL,
	"playback_id" text NOT NULL,
	"user_id" text NOT NULL,
	"dimension" text NOT NULL,
	"value" text NOT NULL,
	"views" integer NOT NULL,
	"played_ms" bigint NOT NULL,
	"ttff_count" integer NOT NULL,
	"ttff_sum_ms" bigint NOT NULL,
	"ttff_histogram" integer[] NOT NULL,
	"rebuffer_ms" bigint NOT NULL,
	"errored" integer NOT NULL,
	"exits_before_start" integer NOT NULL,
	CONSTRAINT "view_days_by_dimension_playback_id_dimension_day_value_pk" PRIMARY KEY("playback_id","dimension","day","value")
);
--> statement-breakpoint
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
-- The hours rolled up before these tables, summed by day as lib/analytics/rollup.ts keeps them from now on.
INSERT INTO "view_days_by_playback" (day, playback_id, user_id, content_id, views, played_ms, ttff_count, ttff_sum_ms, ttff_histogram, rebuffer_ms, errored, exits_before_start)
SELECT hour - hour % 86400000, playback_id, min(user_id), min(content_id), sum(views), sum(played_ms), sum(ttff_count), sum(ttff_sum_ms), ARRAY[sum(ttff_histogram[1]), sum(ttff_histogram[2]), sum(ttff_histogram[3]), sum(ttff_histogram[4]), sum(ttff_histogram[5]), sum(ttff_histogram[6]), sum(ttff_histogram[7]), sum(ttff_histogram[8]), sum(ttff_histogram[9]), sum(ttff_histogram[10]), sum(ttff_histogram[11]), sum(ttff_histogram[12])]::int[], sum(rebuffer_ms), sum(errored), sum(exits_before_start)
FROM "view_hours_by_playback" GROUP BY hour - hour % 86400000, playback_id;--> statement-breakpoint
INSERT INTO "view_days_by_dimension" (day, playback_id, user_id, dimension, value, views, played_ms, ttff_count, ttff_sum_ms, ttff_histogram, rebuffer_ms, errored, exits_before_start)
SELECT h.hour - h.hour % 86400000, h.playback_id, min(h.user_id), d.dimension, d.value, sum(views), sum(played_ms), sum(ttff_count), sum(ttff_sum_ms), ARRAY[sum(ttff_histogram[1]), sum(ttff_histogram[2]), sum(ttff_histogram[3]), sum(ttff_histogram[4]), sum(ttff_histogram[5]), sum(ttff_histogram[6]), sum(ttff_histogram[7]), sum(ttff_histogram[8]), sum(ttff_histogram[9]), sum(ttff_histogram[10]), sum(ttff_histogram[11]), sum(ttff_histogram[12])]::int[], sum(rebuffer_ms), sum(errored), sum(exits_before_start)
FROM "view_hours" h CROSS JOIN LATERAL (VALUES ('browser', h.browser), ('browser_engine', h.browser_engine), ('os', h.os), ('device_type', h.device_type), ('device', h.device), ('country', h.country), ('continent', h.continent), ('timezone', h.timezone)) AS d(dimension, value)
GROUP BY h.hour - h.hour % 86400000, h.playback_id, d.dimension, d.value;
