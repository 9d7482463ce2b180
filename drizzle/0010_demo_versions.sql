CREATE TABLE "demo_versions" (
	"id" text PRIMARY KEY NOT NULL,
	"demo_id" text NOT NULL,
	"number" integer NOT NULL,
	"snapshot" jsonb NOT NULL,
	"step_count" integer NOT NULL,
	"asset_ids" text[] DEFAULT '{}' NOT NULL,
	"published_by_id" text,
	"published_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "views" ADD COLUMN "version" integer;--> statement-breakpoint
ALTER TABLE "demo_versions" ADD CONSTRAINT "demo_versions_demo_id_demos_id_fk" FOREIGN KEY ("demo_id") REFERENCES "public"."demos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "demo_versions_demo_number_uq" ON "demo_versions" USING btree ("demo_id","number");--> statement-breakpoint
-- Demos published before versions existed become version 1 of themselves, so that they keep playing.
-- The snapshot has the shape of src/demos/demo-snapshot.ts (snapshotOf). The id is not time-sorted: it
-- is never ordered by (versions are ordered by number) and only has to be unique and well-formed.
INSERT INTO "demo_versions" ("id", "demo_id", "number", "snapshot", "step_count", "asset_ids", "published_by_id", "published_at")
SELECT
	'dver_' || substr(md5(d."id" || ':1'), 1, 26),
	d."id",
	1,
	jsonb_build_object(
		'title', d."title",
		'configuration', d."configuration",
		'steps', coalesce((
			SELECT jsonb_agg(jsonb_build_object(
				'id', s."id", 'position', s."position", 'title', s."title", 'description', s."description",
				'page_url', s."page_url", 'image_asset_id', s."image_asset_id", 'html_asset_id', s."html_asset_id",
				'width', s."width", 'height', s."height",
				'hotspots', coalesce((
					SELECT jsonb_agg(jsonb_build_object(
						'id', h."id", 'x', h."x", 'y', h."y", 'width', h."width", 'height', h."height",
						'selector', h."selector", 'label', h."label", 'tooltip', h."tooltip",
						'action_type', h."action_type", 'action_target', h."action_target"
					) ORDER BY h."id")
					FROM "hotspots" h WHERE h."step_id" = s."id"
				), '[]'::jsonb)
			) ORDER BY s."position", s."id")
			FROM "steps" s WHERE s."demo_id" = d."id"
		), '[]'::jsonb)
	),
	(SELECT count(*)::int FROM "steps" s WHERE s."demo_id" = d."id"),
	coalesce((
		SELECT array_agg(a ORDER BY a) FROM (
			SELECT s."image_asset_id" AS a FROM "steps" s WHERE s."demo_id" = d."id" AND s."image_asset_id" IS NOT NULL
			UNION
			SELECT s."html_asset_id" FROM "steps" s WHERE s."demo_id" = d."id" AND s."html_asset_id" IS NOT NULL
		) used
	), '{}'),
	NULL,
	coalesce(d."published_at", d."updated_at")
FROM "demos" d
WHERE d."status" = 'published';
