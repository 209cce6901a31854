CREATE TABLE "live_segments" (
	"session_id" text NOT NULL,
	"epoch" integer NOT NULL,
	"seq" integer NOT NULL,
	"file" text NOT NULL,
	"duration" double precision NOT NULL,
	"started_at" bigint NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "live_segments_session_id_epoch_seq_pk" PRIMARY KEY("session_id","epoch","seq")
);
--> statement-breakpoint
ALTER TABLE "recording_segments" ADD COLUMN "started_at" bigint;--> statement-breakpoint
ALTER TABLE "live_segments" ADD CONSTRAINT "live_segments_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "live_segments_start_idx" ON "live_segments" USING btree ("session_id","started_at");