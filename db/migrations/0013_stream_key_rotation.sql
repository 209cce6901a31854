ALTER TABLE "sessions" ADD COLUMN "key_generation" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "streams" ADD COLUMN "key_generation" integer DEFAULT 0 NOT NULL;