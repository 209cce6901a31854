CREATE TABLE "asset_renditions" (
	"asset_id" text NOT NULL,
	"name" text NOT NULL,
	"position" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"bitrate" integer NOT NULL,
	"fps" double precision NOT NULL,
	"quality" integer,
	"gop" double precision,
	"h264_profile" text,
	"chunks" integer NOT NULL,
	"chunks_done" integer DEFAULT 0 NOT NULL,
	"phase" text NOT NULL,
	"error_message" text,
	"bandwidth" integer,
	"average_bandwidth" integer,
	"codecs" text,
	"mp4_key" text,
	"mp4_size" bigint,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "asset_renditions_asset_id_name_pk" PRIMARY KEY("asset_id","name")
);
--> statement-breakpoint
CREATE TABLE "transcode_chunks" (
	"asset_id" text NOT NULL,
	"rendition" text NOT NULL,
	"index" integer NOT NULL,
	"start" double precision NOT NULL,
	"duration" double precision NOT NULL,
	"segments" jsonb,
	"worker" text,
	"done_at" bigint,
	CONSTRAINT "transcode_chunks_asset_id_rendition_index_pk" PRIMARY KEY("asset_id","rendition","index")
);
--> statement-breakpoint
ALTER TABLE "assets" ADD COLUMN "transcode" jsonb;--> statement-breakpoint
ALTER TABLE "asset_renditions" ADD CONSTRAINT "asset_renditions_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transcode_chunks" ADD CONSTRAINT "transcode_chunks_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE cascade ON UPDATE no action;