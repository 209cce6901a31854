CREATE TABLE "view_deltas" (
	"hour" bigint NOT NULL,
	"playback_id" text NOT NULL,
	"user_id" text NOT NULL,
	"content_id" text NOT NULL,
	"browser" text NOT NULL,
	"browser_engine" text NOT NULL,
	"os" text NOT NULL,
	"device_type" text NOT NULL,
	"device" text NOT NULL,
	"country" text NOT NULL,
	"continent" text NOT NULL,
	"timezone" text NOT NULL,
	"views" integer NOT NULL,
	"played_ms" bigint NOT NULL,
	"ttff_count" integer NOT NULL,
	"ttff_sum_ms" bigint NOT NULL,
	"ttff_histogram" integer[],
	"rebuffer_ms" bigint NOT NULL,
	"errored" integer NOT NULL,
	"exits_before_start" integer NOT NULL
);
--> statement-breakpoint
DROP INDEX "view_hours_playback_idx";--> statement-breakpoint
DROP INDEX "view_hours_by_account_idx";--> statement-breakpoint
DROP INDEX "view_hours_by_playback_idx";--> statement-breakpoint
DROP INDEX "views_seen_idx";--> statement-breakpoint
DROP INDEX "views_playback_started_idx";--> statement-breakpoint
DROP INDEX "views_user_seen_idx";--> statement-breakpoint
ALTER TABLE "view_hours_by_account" ADD CONSTRAINT "view_hours_by_account_pkey" PRIMARY KEY("user_id","dimension","hour","value");--> statement-breakpoint
ALTER TABLE "view_hours_by_playback" ADD CONSTRAINT "view_hours_by_playback_pkey" PRIMARY KEY("playback_id","hour");--> statement-breakpoint
ALTER TABLE "view_hours" ADD COLUMN "combination" uuid;--> statement-breakpoint
-- As lib/analytics/rollup.ts combinationOf makes it.
UPDATE "view_hours" SET "combination" = md5(length(browser) || ':' || browser || length(browser_engine) || ':' || browser_engine || length(os) || ':' || os || length(device_type) || ':' || device_type || length(device) || ':' || device || length(country) || ':' || country || length(continent) || ':' || continent || length(timezone) || ':' || timezone)::uuid;--> statement-breakpoint
ALTER TABLE "view_hours" ALTER COLUMN "combination" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "view_hours" ADD CONSTRAINT "view_hours_pkey" PRIMARY KEY("playback_id","hour","combination");--> statement-breakpoint
ALTER TABLE "views" ADD COLUMN "seen_minute" integer GENERATED ALWAYS AS ((seen_at / 60000)::int) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "views" ADD COLUMN "prior_played_ms" bigint;--> statement-breakpoint
ALTER TABLE "views" ADD COLUMN "prior_ttff_ms" integer;--> statement-breakpoint
ALTER TABLE "views" ADD COLUMN "prior_rebuffer_ms" bigint;--> statement-breakpoint
ALTER TABLE "views" ADD COLUMN "prior_error_count" integer;--> statement-breakpoint
ALTER TABLE "views" ADD COLUMN "prior_ended" boolean;--> statement-breakpoint
CREATE INDEX "views_user_seen_idx" ON "views" USING btree ("user_id","seen_minute");--> statement-breakpoint
-- Room on each page for its rows' next versions: updates that change no indexed column then stay on the page and touch no index (HOT). Beacons update views; the roll-up, its rows (view_hours' are mostly past hours, never updated again: less room there).
ALTER TABLE "views" SET (fillfactor = 80);--> statement-breakpoint
ALTER TABLE "view_hours" SET (fillfactor = 90);--> statement-breakpoint
ALTER TABLE "view_hours_by_playback" SET (fillfactor = 80);--> statement-breakpoint
ALTER TABLE "view_days_by_playback" SET (fillfactor = 80);--> statement-breakpoint
ALTER TABLE "view_hours_by_account" SET (fillfactor = 80);
