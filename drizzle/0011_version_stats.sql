ALTER TABLE "demo_daily_stats" ADD COLUMN "version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "demo_step_daily_stats" ADD COLUMN "version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "demo_daily_stats" DROP CONSTRAINT "demo_daily_stats_demo_id_day_pk";--> statement-breakpoint
ALTER TABLE "demo_step_daily_stats" DROP CONSTRAINT "demo_step_daily_stats_demo_id_day_step_number_pk";--> statement-breakpoint
ALTER TABLE "demo_daily_stats" ADD CONSTRAINT "demo_daily_stats_demo_id_day_version_pk" PRIMARY KEY("demo_id","day","version");--> statement-breakpoint
ALTER TABLE "demo_step_daily_stats" ADD CONSTRAINT "demo_step_daily_stats_demo_id_day_version_step_number_pk" PRIMARY KEY("demo_id","day","version","step_number");
