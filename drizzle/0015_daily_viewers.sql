CREATE TABLE "demo_daily_viewers" (
	"demo_id" text NOT NULL,
	"day" date NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"viewer_key" text NOT NULL,
	CONSTRAINT "demo_daily_viewers_demo_id_day_version_viewer_key_pk" PRIMARY KEY("demo_id","day","version","viewer_key")
);
--> statement-breakpoint
ALTER TABLE "demo_daily_viewers" ADD CONSTRAINT "demo_daily_viewers_demo_id_demos_id_fk" FOREIGN KEY ("demo_id") REFERENCES "public"."demos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The viewers of the views recorded so far, keyed as ingestion keys them from now on.
INSERT INTO "demo_daily_viewers" ("demo_id", "day", "version", "viewer_key")
SELECT DISTINCT "demo_id", ("started_at" AT TIME ZONE 'UTC')::date, coalesce("version", 0), coalesce("viewer_email", "anonymous_id")
FROM "views"
WHERE coalesce("viewer_email", "anonymous_id") IS NOT NULL
ON CONFLICT DO NOTHING;
