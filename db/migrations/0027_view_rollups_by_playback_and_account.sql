CREATE TABLE "view_hours_by_account" (
	"hour" bigint NOT NULL,
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
	"exits_before_start" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "view_hours_by_playback" (
	"hour" bigint NOT NULL,
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
	"exits_before_start" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "view_hours_by_account_idx" ON "view_hours_by_account" USING btree ("user_id","dimension","hour");--> statement-breakpoint
CREATE INDEX "view_hours_by_playback_idx" ON "view_hours_by_playback" USING btree ("playback_id","hour");--> statement-breakpoint
CREATE INDEX "view_hours_by_playback_user_idx" ON "view_hours_by_playback" USING btree ("user_id","hour");--> statement-breakpoint
CREATE INDEX "views_playback_started_idx" ON "views" USING btree ("playback_id","started_at");
--> statement-breakpoint
-- The hours rolled up before these tables, summed as lib/analytics/rollup.ts sums them from now on.
INSERT INTO "view_hours_by_playback" (hour, playback_id, user_id, content_id, views, played_ms, ttff_count, ttff_sum_ms, ttff_histogram, rebuffer_ms, errored, exits_before_start)
SELECT hour, playback_id, user_id, content_id, sum(views), sum(played_ms), sum(ttff_count), sum(ttff_sum_ms), ARRAY[sum(ttff_histogram[1]), sum(ttff_histogram[2]), sum(ttff_histogram[3]), sum(ttff_histogram[4]), sum(ttff_histogram[5]), sum(ttff_histogram[6]), sum(ttff_histogram[7]), sum(ttff_histogram[8]), sum(ttff_histogram[9]), sum(ttff_histogram[10]), sum(ttff_histogram[11]), sum(ttff_histogram[12])]::int[], sum(rebuffer_ms), sum(errored), sum(exits_before_start)
FROM "view_hours" GROUP BY hour, playback_id, user_id, content_id;--> statement-breakpoint
INSERT INTO "view_hours_by_account" (hour, user_id, dimension, value, views, played_ms, ttff_count, ttff_sum_ms, ttff_histogram, rebuffer_ms, errored, exits_before_start)
SELECT h.hour, h.user_id, d.dimension, d.value, sum(views), sum(played_ms), sum(ttff_count), sum(ttff_sum_ms), ARRAY[sum(ttff_histogram[1]), sum(ttff_histogram[2]), sum(ttff_histogram[3]), sum(ttff_histogram[4]), sum(ttff_histogram[5]), sum(ttff_histogram[6]), sum(ttff_histogram[7]), sum(ttff_histogram[8]), sum(ttff_histogram[9]), sum(ttff_histogram[10]), sum(ttff_histogram[11]), sum(ttff_histogram[12])]::int[], sum(rebuffer_ms), sum(errored), sum(exits_before_start)
FROM "view_hours" h CROSS JOIN LATERAL (VALUES ('', ''), ('browser', h.browser), ('browser_engine', h.browser_engine), ('os', h.os), ('device_type', h.device_type), ('device', h.device), ('country', h.country), ('continent', h.continent), ('timezone', h.timezone)) AS d(dimension, value)
GROUP BY h.hour, h.user_id, d.dimension, d.value;
