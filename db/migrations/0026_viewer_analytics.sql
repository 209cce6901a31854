CREATE TABLE "progress_marks" (
	"name" text PRIMARY KEY NOT NULL,
	"upto" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "view_hours" (
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
	"ttff_histogram" integer[] NOT NULL,
	"rebuffer_ms" bigint NOT NULL,
	"errored" integer NOT NULL,
	"exits_before_start" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "views" (
	"id" text PRIMARY KEY NOT NULL,
	"playback_id" text NOT NULL,
	"user_id" text NOT NULL,
	"content_id" text NOT NULL,
	"viewer_id" text NOT NULL,
	"started_at" bigint NOT NULL,
	"seen_at" bigint NOT NULL,
	"browser" text DEFAULT '' NOT NULL,
	"browser_engine" text DEFAULT '' NOT NULL,
	"os" text DEFAULT '' NOT NULL,
	"device_type" text DEFAULT '' NOT NULL,
	"device" text DEFAULT '' NOT NULL,
	"country" text DEFAULT '' NOT NULL,
	"continent" text DEFAULT '' NOT NULL,
	"timezone" text DEFAULT '' NOT NULL,
	"mode" text DEFAULT '' NOT NULL,
	"ttff_ms" integer,
	"played_ms" bigint DEFAULT 0 NOT NULL,
	"rebuffer_count" integer DEFAULT 0 NOT NULL,
	"rebuffer_ms" bigint DEFAULT 0 NOT NULL,
	"error_count" integer DEFAULT 0 NOT NULL,
	"error_type" text,
	"seek_count" integer DEFAULT 0 NOT NULL,
	"quality_changes" integer DEFAULT 0 NOT NULL,
	"height" integer,
	"ended" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE INDEX "view_hours_user_idx" ON "view_hours" USING btree ("user_id","hour");--> statement-breakpoint
CREATE INDEX "view_hours_playback_idx" ON "view_hours" USING btree ("playback_id","hour");--> statement-breakpoint
CREATE INDEX "views_user_seen_idx" ON "views" USING btree ("user_id","seen_at");--> statement-breakpoint
CREATE INDEX "views_seen_idx" ON "views" USING btree ("seen_at");--> statement-breakpoint
CREATE INDEX "views_started_idx" ON "views" USING btree ("started_at");