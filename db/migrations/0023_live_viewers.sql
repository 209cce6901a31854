CREATE TABLE "live_viewers" (
	"stream_id" text NOT NULL,
	"instance" text NOT NULL,
	"viewers" integer NOT NULL,
	"reported_at" bigint NOT NULL,
	CONSTRAINT "live_viewers_stream_id_instance_pk" PRIMARY KEY("stream_id","instance")
);
--> statement-breakpoint
ALTER TABLE "live_viewers" ADD CONSTRAINT "live_viewers_stream_id_streams_id_fk" FOREIGN KEY ("stream_id") REFERENCES "public"."streams"("id") ON DELETE cascade ON UPDATE no action;