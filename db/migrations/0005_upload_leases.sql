ALTER TABLE "assets" ADD COLUMN "upload_claim" text;--> statement-breakpoint
ALTER TABLE "assets" ADD COLUMN "upload_lease_until" bigint;--> statement-breakpoint
CREATE INDEX "assets_upload_lease_idx" ON "assets" USING btree ("upload_lease_until");