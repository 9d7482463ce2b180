ALTER TABLE "assets" ALTER COLUMN "bytes" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "assets" ADD COLUMN "blob_key" text;--> statement-breakpoint
CREATE INDEX "assets_blob_key_idx" ON "assets" USING btree ("blob_key") WHERE blob_key is not null;--> statement-breakpoint
ALTER TABLE "assets" ADD CONSTRAINT "assets_bytes_or_blob_ck" CHECK (("assets"."bytes" is null) <> ("assets"."blob_key" is null));