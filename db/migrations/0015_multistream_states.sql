CREATE TABLE "multistream_states" (
	"session_id" text NOT NULL,
	"target_id" text NOT NULL,
	"epoch" integer NOT NULL,
	"seq" integer,
	"state" text NOT NULL,
	"error" text,
	"retry_at" bigint,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "multistream_states_session_id_target_id_pk" PRIMARY KEY("session_id","target_id")
);
--> statement-breakpoint
ALTER TABLE "multistream_states" ADD CONSTRAINT "multistream_states_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "multistream_states" ADD CONSTRAINT "multistream_states_target_id_multistream_targets_id_fk" FOREIGN KEY ("target_id") REFERENCES "public"."multistream_targets"("id") ON DELETE cascade ON UPDATE no action;