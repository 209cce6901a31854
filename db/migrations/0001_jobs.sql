CREATE TABLE "job_events" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"data" jsonb NOT NULL,
	"ts" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job_functions" (
	"id" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"events" text[] NOT NULL,
	"concurrency_limit" integer,
	"concurrency_key_path" text[],
	"synced_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"function_id" text NOT NULL,
	"event_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"steps" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"stack" text[] DEFAULT '{}'::text[] NOT NULL,
	"planned" text[] DEFAULT '{}'::text[] NOT NULL,
	"attempt" integer DEFAULT 0 NOT NULL,
	"parallel" boolean DEFAULT false NOT NULL,
	"concurrency_key" text,
	"concurrency_limit" integer,
	"next_run_at" bigint NOT NULL,
	"locked_by" text,
	"locked_until" bigint DEFAULT 0 NOT NULL,
	"output" jsonb,
	"error" jsonb,
	"created_at" bigint NOT NULL,
	"ended_at" bigint
);
--> statement-breakpoint
ALTER TABLE "job_runs" ADD CONSTRAINT "job_runs_event_id_job_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."job_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "job_runs_due_idx" ON "job_runs" USING btree ("next_run_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "job_runs_concurrency_idx" ON "job_runs" USING btree ("concurrency_key","locked_until") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "job_runs_event_idx" ON "job_runs" USING btree ("event_id");