CREATE TABLE "workspace_daily_sketches" (
	"workspace_id" text NOT NULL,
	"day" date NOT NULL,
	"internal" boolean DEFAULT false NOT NULL,
	"sketch" "bytea" NOT NULL,
	CONSTRAINT "workspace_daily_sketches_workspace_id_day_internal_pk" PRIMARY KEY("workspace_id","day","internal")
);
--> statement-breakpoint
ALTER TABLE "workspace_daily_sketches" ADD CONSTRAINT "workspace_daily_sketches_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Backfill from the day viewer sets of every demo (a viewer of two demos counts once).
INSERT INTO "workspace_daily_sketches" ("workspace_id", "day", "internal", "sketch")
SELECT d."workspace_id", v."day", v."internal", demoshare_hll_add(decode(repeat('00', 4096), 'hex'), array_agg(DISTINCT v."viewer_key"))
FROM "demo_daily_viewers" v
JOIN "demos" d ON d."id" = v."demo_id"
GROUP BY 1, 2, 3;
