CREATE TABLE "media_nodes" (
	"id" text PRIMARY KEY NOT NULL,
	"ingest_url" text,
	"rtmp_port" integer NOT NULL,
	"cores" integer NOT NULL,
	"cpu_load" real NOT NULL,
	"live_sessions" integer NOT NULL,
	"started_at" bigint NOT NULL,
	"last_heartbeat_at" bigint NOT NULL,
	"lost_at" bigint
);
--> statement-breakpoint
CREATE TABLE "recording_segments" (
	"session_id" text NOT NULL,
	"epoch" integer NOT NULL,
	"seq" integer NOT NULL,
	"file" text NOT NULL,
	"duration" double precision NOT NULL,
	"size" bigint NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "recording_segments_session_id_epoch_seq_pk" PRIMARY KEY("session_id","epoch","seq")
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "epoch" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "end_reason" text;--> statement-breakpoint
ALTER TABLE "recording_segments" ADD CONSTRAINT "recording_segments_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;