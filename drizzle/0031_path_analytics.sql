CREATE TABLE "demo_chapter_daily_stats" (
	"demo_id" text NOT NULL,
	"day" date NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"internal" boolean DEFAULT false NOT NULL,
	"chapter_id" text NOT NULL,
	"choices" integer DEFAULT 0 NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"completions" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "demo_chapter_daily_stats_demo_id_day_version_internal_chapter_id_pk" PRIMARY KEY("demo_id","day","version","internal","chapter_id")
);
--> statement-breakpoint
CREATE TABLE "demo_chapter_step_daily_stats" (
	"demo_id" text NOT NULL,
	"day" date NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"internal" boolean DEFAULT false NOT NULL,
	"chapter_id" text NOT NULL,
	"step_number" integer NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "demo_chapter_step_daily_stats_demo_id_day_version_internal_chapter_id_step_number_pk" PRIMARY KEY("demo_id","day","version","internal","chapter_id","step_number")
);
--> statement-breakpoint
CREATE TABLE "demo_element_daily_stats" (
	"demo_id" text NOT NULL,
	"day" date NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"internal" boolean DEFAULT false NOT NULL,
	"step_number" integer NOT NULL,
	"element_id" text NOT NULL,
	"action_type" text,
	"action_clicks" integer DEFAULT 0 NOT NULL,
	"action_views" integer DEFAULT 0 NOT NULL,
	"cta_clicks" integer DEFAULT 0 NOT NULL,
	"cta_views" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "demo_element_daily_stats_demo_id_day_version_internal_step_number_element_id_pk" PRIMARY KEY("demo_id","day","version","internal","step_number","element_id")
);
--> statement-breakpoint
CREATE TABLE "demo_form_daily_stats" (
	"demo_id" text NOT NULL,
	"day" date NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"internal" boolean DEFAULT false NOT NULL,
	"step_number" integer NOT NULL,
	"shown" integer DEFAULT 0 NOT NULL,
	"started" integer DEFAULT 0 NOT NULL,
	"submitted" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "demo_form_daily_stats_demo_id_day_version_internal_step_number_pk" PRIMARY KEY("demo_id","day","version","internal","step_number")
);
--> statement-breakpoint
CREATE TABLE "demo_path_daily_stats" (
	"demo_id" text NOT NULL,
	"day" date NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"internal" boolean DEFAULT false NOT NULL,
	"path" text NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "demo_path_daily_stats_demo_id_day_version_internal_path_pk" PRIMARY KEY("demo_id","day","version","internal","path")
);
--> statement-breakpoint
ALTER TABLE "views" ADD COLUMN "chapter_id" text;--> statement-breakpoint
ALTER TABLE "views" ADD COLUMN "path_marks" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "demo_chapter_daily_stats" ADD CONSTRAINT "demo_chapter_daily_stats_demo_id_demos_id_fk" FOREIGN KEY ("demo_id") REFERENCES "public"."demos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "demo_chapter_step_daily_stats" ADD CONSTRAINT "demo_chapter_step_daily_stats_demo_id_demos_id_fk" FOREIGN KEY ("demo_id") REFERENCES "public"."demos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "demo_element_daily_stats" ADD CONSTRAINT "demo_element_daily_stats_demo_id_demos_id_fk" FOREIGN KEY ("demo_id") REFERENCES "public"."demos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "demo_form_daily_stats" ADD CONSTRAINT "demo_form_daily_stats_demo_id_demos_id_fk" FOREIGN KEY ("demo_id") REFERENCES "public"."demos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "demo_path_daily_stats" ADD CONSTRAINT "demo_path_daily_stats_demo_id_demos_id_fk" FOREIGN KEY ("demo_id") REFERENCES "public"."demos"("id") ON DELETE cascade ON UPDATE no action;