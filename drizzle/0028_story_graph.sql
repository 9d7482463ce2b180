CREATE TABLE "chapters" (
	"id" text PRIMARY KEY NOT NULL,
	"demo_id" text NOT NULL,
	"position" integer NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "hotspots" ADD COLUMN "tooltip_html" text;--> statement-breakpoint
ALTER TABLE "steps" ADD COLUMN "kind" text DEFAULT 'page' NOT NULL;--> statement-breakpoint
ALTER TABLE "steps" ADD COLUMN "chapter_id" text;--> statement-breakpoint
ALTER TABLE "steps" ADD COLUMN "content" jsonb DEFAULT '{"buttons":[]}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "steps" ADD COLUMN "patches" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "steps" ADD COLUMN "description_html" text;--> statement-breakpoint
ALTER TABLE "chapters" ADD CONSTRAINT "chapters_demo_id_demos_id_fk" FOREIGN KEY ("demo_id") REFERENCES "public"."demos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chapters_demo_position_idx" ON "chapters" USING btree ("demo_id","position");--> statement-breakpoint
ALTER TABLE "steps" ADD CONSTRAINT "steps_chapter_id_chapters_id_fk" FOREIGN KEY ("chapter_id") REFERENCES "public"."chapters"("id") ON DELETE set null ON UPDATE no action;