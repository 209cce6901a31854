CREATE TABLE "asset_text_tracks" (
	"id" text PRIMARY KEY NOT NULL,
	"asset_id" text NOT NULL,
	"language" text NOT NULL,
	"name" text NOT NULL,
	"format" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "asset_text_tracks" ADD CONSTRAINT "asset_text_tracks_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "asset_text_tracks_asset_idx" ON "asset_text_tracks" USING btree ("asset_id","created_at");