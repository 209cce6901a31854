ALTER TABLE "sessions" ADD COLUMN "reconnect_window" integer;--> statement-breakpoint
ALTER TABLE "streams" ADD COLUMN "reconnect_window" integer;