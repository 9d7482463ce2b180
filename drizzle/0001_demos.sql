CREATE TABLE "assets" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"demo_id" text NOT NULL,
	"content_type" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "demos" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"title" text NOT NULL,
	"source_url" text,
	"type" text DEFAULT 'interactive' NOT NULL,
	"status" text NOT NULL,
	"configuration" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"generate_with_ai" boolean DEFAULT false NOT NULL,
	"generation_status" text DEFAULT 'none' NOT NULL,
	"generation_error" text,
	"generation_started_at" timestamp with time zone,
	"generation_finished_at" timestamp with time zone,
	"generation_capture_mode" text,
	"generation_writer" text,
	"generation_job_id" text,
	"generation_attempt" text,
	"published_at" timestamp with time zone,
	"created_by_id" text,
	"thumbnail_asset_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "demos_status_ck" CHECK ("demos"."status" in ('generating', 'draft', 'published', 'archived'))
);
--> statement-breakpoint
CREATE TABLE "hotspots" (
	"id" text PRIMARY KEY NOT NULL,
	"step_id" text NOT NULL,
	"demo_id" text NOT NULL,
	"x" double precision NOT NULL,
	"y" double precision NOT NULL,
	"width" double precision NOT NULL,
	"height" double precision NOT NULL,
	"selector" text,
	"label" text DEFAULT '' NOT NULL,
	"tooltip" text DEFAULT '' NOT NULL,
	"action_type" text DEFAULT 'next' NOT NULL,
	"action_target" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hotspots_box_ck" CHECK ("hotspots"."x" >= 0 and "hotspots"."y" >= 0 and "hotspots"."width" > 0 and "hotspots"."height" > 0 and "hotspots"."x" + "hotspots"."width" <= 1.000001 and "hotspots"."y" + "hotspots"."height" <= 1.000001)
);
--> statement-breakpoint
CREATE TABLE "steps" (
	"id" text PRIMARY KEY NOT NULL,
	"demo_id" text NOT NULL,
	"position" integer NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"page_url" text,
	"image_asset_id" text,
	"width" integer,
	"height" integer,
	"html_asset_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "assets" ADD CONSTRAINT "assets_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assets" ADD CONSTRAINT "assets_demo_id_demos_id_fk" FOREIGN KEY ("demo_id") REFERENCES "public"."demos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "demos" ADD CONSTRAINT "demos_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "demos" ADD CONSTRAINT "demos_created_by_id_members_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "demos" ADD CONSTRAINT "demos_thumbnail_asset_id_assets_id_fk" FOREIGN KEY ("thumbnail_asset_id") REFERENCES "public"."assets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hotspots" ADD CONSTRAINT "hotspots_step_id_steps_id_fk" FOREIGN KEY ("step_id") REFERENCES "public"."steps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hotspots" ADD CONSTRAINT "hotspots_demo_id_demos_id_fk" FOREIGN KEY ("demo_id") REFERENCES "public"."demos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "steps" ADD CONSTRAINT "steps_demo_id_demos_id_fk" FOREIGN KEY ("demo_id") REFERENCES "public"."demos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "steps" ADD CONSTRAINT "steps_image_asset_id_assets_id_fk" FOREIGN KEY ("image_asset_id") REFERENCES "public"."assets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "steps" ADD CONSTRAINT "steps_html_asset_id_assets_id_fk" FOREIGN KEY ("html_asset_id") REFERENCES "public"."assets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assets_demo_idx" ON "assets" USING btree ("demo_id");--> statement-breakpoint
CREATE INDEX "demos_workspace_created_idx" ON "demos" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "demos_generating_idx" ON "demos" USING btree ("status") WHERE status = 'generating';--> statement-breakpoint
CREATE INDEX "hotspots_step_idx" ON "hotspots" USING btree ("step_id");--> statement-breakpoint
CREATE INDEX "hotspots_demo_idx" ON "hotspots" USING btree ("demo_id");--> statement-breakpoint
CREATE INDEX "steps_demo_position_idx" ON "steps" USING btree ("demo_id","position");