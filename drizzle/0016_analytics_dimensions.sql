CREATE TABLE "demo_daily_segments" (
	"demo_id" text NOT NULL,
	"day" date NOT NULL,
	"internal" boolean DEFAULT false NOT NULL,
	"share_id" text DEFAULT '' NOT NULL,
	"company" text DEFAULT '' NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"completions" integer DEFAULT 0 NOT NULL,
	"last_viewed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "demo_daily_segments_demo_id_day_internal_share_id_company_pk" PRIMARY KEY("demo_id","day","internal","share_id","company")
);--> statement-breakpoint
CREATE TABLE "demo_daily_sketches" (
	"demo_id" text NOT NULL,
	"day" date NOT NULL,
	"internal" boolean DEFAULT false NOT NULL,
	"sketch" "bytea" NOT NULL,
	CONSTRAINT "demo_daily_sketches_demo_id_day_internal_pk" PRIMARY KEY("demo_id","day","internal")
);--> statement-breakpoint
ALTER TABLE "viewer_sessions" ADD COLUMN "internal" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "demo_daily_stats" ADD COLUMN "internal" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "demo_daily_viewers" ADD COLUMN "internal" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "demo_daily_viewers" ADD COLUMN "share_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "demo_step_daily_stats" ADD COLUMN "internal" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "views" ADD COLUMN "internal" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "views" ADD COLUMN "company" text;--> statement-breakpoint
ALTER TABLE "demo_daily_stats" DROP CONSTRAINT "demo_daily_stats_demo_id_day_version_pk";--> statement-breakpoint
ALTER TABLE "demo_daily_viewers" DROP CONSTRAINT "demo_daily_viewers_demo_id_day_version_viewer_key_pk";--> statement-breakpoint
ALTER TABLE "demo_step_daily_stats" DROP CONSTRAINT "demo_step_daily_stats_demo_id_day_version_step_number_pk";--> statement-breakpoint
ALTER TABLE "demo_daily_stats" ADD CONSTRAINT "demo_daily_stats_demo_id_day_version_internal_pk" PRIMARY KEY("demo_id","day","version","internal");--> statement-breakpoint
ALTER TABLE "demo_daily_viewers" ADD CONSTRAINT "demo_daily_viewers_demo_id_day_version_internal_share_id_viewer_key_pk" PRIMARY KEY("demo_id","day","version","internal","share_id","viewer_key");--> statement-breakpoint
ALTER TABLE "demo_step_daily_stats" ADD CONSTRAINT "demo_step_daily_stats_demo_id_day_version_internal_step_number_pk" PRIMARY KEY("demo_id","day","version","internal","step_number");--> statement-breakpoint
ALTER TABLE "demo_daily_segments" ADD CONSTRAINT "demo_daily_segments_demo_id_demos_id_fk" FOREIGN KEY ("demo_id") REFERENCES "public"."demos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "demo_daily_sketches" ADD CONSTRAINT "demo_daily_sketches_demo_id_demos_id_fk" FOREIGN KEY ("demo_id") REFERENCES "public"."demos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A HyperLogLog add (hll.ts holds the estimator): a key's MD5 picks one of 4096 registers with its first 12
-- bits, and the register keeps the largest rank seen, the position of the first 1 in the next 52 bits.
CREATE OR REPLACE FUNCTION demoshare_hll_add(sketch bytea, keys text[]) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  k text;
  bits text;
  idx integer;
  rnk integer;
BEGIN
  FOREACH k IN ARRAY keys LOOP
    bits := (('x' || substr(md5(k), 1, 16))::bit(64))::text;
    idx := substr(bits, 1, 12)::bit(12)::integer;
    rnk := position('1' in substr(bits, 13));
    IF rnk = 0 THEN rnk := 53; END IF;
    IF get_byte(sketch, idx) < rnk THEN sketch := set_byte(sketch, idx, rnk); END IF;
  END LOOP;
  RETURN sketch;
END
$$;--> statement-breakpoint
-- Views from then on know their company and whether they are the workspace's own. Earlier views: their
-- e-mail as it is now, and members' addresses (a member's session was not recorded before).
UPDATE "views" SET "company" = lower(split_part("viewer_email", '@', 2)) WHERE "viewer_email" LIKE '%@%';--> statement-breakpoint
UPDATE "views" v SET "internal" = true
FROM "members" m
WHERE m."workspace_id" = v."workspace_id" AND lower(m."email") = lower(v."viewer_email");--> statement-breakpoint
-- The roll-ups of demos with internal views are built again from their views, now split by "internal".
CREATE TEMP TABLE "internal_demos" AS SELECT DISTINCT "demo_id" FROM "views" WHERE "internal";--> statement-breakpoint
DELETE FROM "demo_daily_stats" WHERE "demo_id" IN (SELECT "demo_id" FROM "internal_demos");--> statement-breakpoint
INSERT INTO "demo_daily_stats" ("demo_id", "day", "version", "internal", "views", "completions", "duration_seconds")
SELECT "demo_id", ("started_at" AT TIME ZONE 'UTC')::date, coalesce("version", 0), "internal", count(*)::int,
  count(*) FILTER (WHERE "completed")::int, sum("duration_seconds")
FROM "views" WHERE "demo_id" IN (SELECT "demo_id" FROM "internal_demos")
GROUP BY 1, 2, 3, 4;--> statement-breakpoint
DELETE FROM "demo_step_daily_stats" WHERE "demo_id" IN (SELECT "demo_id" FROM "internal_demos");--> statement-breakpoint
INSERT INTO "demo_step_daily_stats" ("demo_id", "day", "version", "internal", "step_number", "views", "seconds", "ended_here")
SELECT v."demo_id", (v."started_at" AT TIME ZONE 'UTC')::date, coalesce(v."version", 0), v."internal", s."step_number",
  count(*)::int, sum(s."seconds"),
  count(*) FILTER (WHERE NOT v."completed" AND s."step_number" = (SELECT max(x) FROM unnest(v."steps_viewed") x))::int
FROM "views" v JOIN "view_steps" s ON s."view_id" = v."id"
WHERE v."demo_id" IN (SELECT "demo_id" FROM "internal_demos")
GROUP BY 1, 2, 3, 4, 5;--> statement-breakpoint
DROP TABLE "internal_demos";--> statement-breakpoint
-- Viewer sets gain their link: built again from the views, keyed as ingestion keys them.
DELETE FROM "demo_daily_viewers";--> statement-breakpoint
INSERT INTO "demo_daily_viewers" ("demo_id", "day", "version", "internal", "share_id", "viewer_key")
SELECT DISTINCT "demo_id", ("started_at" AT TIME ZONE 'UTC')::date, coalesce("version", 0), "internal", coalesce("share_id", ''),
  coalesce("viewer_email", "anonymous_id")
FROM "views"
WHERE coalesce("viewer_email", "anonymous_id") IS NOT NULL;--> statement-breakpoint
INSERT INTO "demo_daily_segments" ("demo_id", "day", "internal", "share_id", "company", "views", "completions", "last_viewed_at")
SELECT "demo_id", ("started_at" AT TIME ZONE 'UTC')::date, "internal", coalesce("share_id", ''), coalesce("company", ''),
  count(*)::int, count(*) FILTER (WHERE "completed")::int, max("started_at")
FROM "views"
GROUP BY 1, 2, 3, 4, 5;--> statement-breakpoint
INSERT INTO "demo_daily_sketches" ("demo_id", "day", "internal", "sketch")
SELECT "demo_id", "day", "internal", demoshare_hll_add(decode(repeat('00', 4096), 'hex'), array_agg(DISTINCT "viewer_key"))
FROM "demo_daily_viewers"
GROUP BY 1, 2, 3;
--> statement-breakpoint
CREATE INDEX "views_workspace_email_idx" ON "views" USING btree ("workspace_id","viewer_email");
