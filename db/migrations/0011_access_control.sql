CREATE TABLE "playback_admissions" (
	"key" text PRIMARY KEY NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signing_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"public_key" text NOT NULL,
	"disabled" boolean DEFAULT false NOT NULL,
	"created_at" bigint NOT NULL,
	"last_seen" bigint
);
--> statement-breakpoint
ALTER TABLE "assets" ADD COLUMN "playback_policy" jsonb;--> statement-breakpoint
ALTER TABLE "streams" ADD COLUMN "playback_policy" jsonb;--> statement-breakpoint
ALTER TABLE "signing_keys" ADD CONSTRAINT "signing_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "playback_admissions_expiry_idx" ON "playback_admissions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "signing_keys_user_idx" ON "signing_keys" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "signing_keys_public_key_idx" ON "signing_keys" USING btree ("public_key");