CREATE TABLE "session_health_samples" (
	"session_id" text NOT NULL,
	"at" bigint NOT NULL,
	"beats" integer NOT NULL,
	"bitrate_kbps" real,
	"fps" real,
	"keyframe_interval_s" real,
	CONSTRAINT "session_health_samples_session_id_at_pk" PRIMARY KEY("session_id","at")
);
--> statement-breakpoint
ALTER TABLE "session_health_samples" ADD CONSTRAINT "session_health_samples_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;