ALTER TABLE "shares" ADD COLUMN "preview_title" text;--> statement-breakpoint
ALTER TABLE "shares" ADD COLUMN "preview_description" text;--> statement-breakpoint
ALTER TABLE "shares" ADD COLUMN "preview_image_asset_id" text;--> statement-breakpoint
ALTER TABLE "shares" ADD COLUMN "show_title_before_unlock" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "shares" ADD CONSTRAINT "shares_preview_image_asset_id_assets_id_fk" FOREIGN KEY ("preview_image_asset_id") REFERENCES "public"."assets"("id") ON DELETE set null ON UPDATE no action;