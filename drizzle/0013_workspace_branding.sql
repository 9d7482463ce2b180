CREATE TABLE "workspace_logos" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"sha256" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "brand_color" text;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "font" text DEFAULT 'system' NOT NULL;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "logo_sha256" text;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "share_require_identification" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "share_expires_in_days" integer;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "workspace_logos" ADD CONSTRAINT "workspace_logos_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_brand_color_ck" CHECK ("workspaces"."brand_color" ~ '^#[0-9a-f]{6}$');--> statement-breakpoint
ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_share_expiry_ck" CHECK ("workspaces"."share_expires_in_days" between 1 and 365);--> statement-breakpoint
-- Demos that kept the product's default accent now follow their workspace's brand colour: a stored
-- theme_color is an override, and the default was never one. Published versions alike.
UPDATE "demos" SET "configuration" = "configuration" - 'theme_color' WHERE "configuration"->>'theme_color' = '#4f46e5';--> statement-breakpoint
UPDATE "demo_versions" SET "snapshot" = jsonb_set("snapshot", '{configuration}', ("snapshot"->'configuration') - 'theme_color')
WHERE "snapshot"->'configuration'->>'theme_color' = '#4f46e5';
