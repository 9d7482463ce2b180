-- Views and their step times partitioned by month of the view's started_at, on both engines
-- (docs/partitioning.md). The old tables are renamed, a partition is made for every month their rows
-- span (up to two months ahead, beside a DEFAULT partition that catches any month without one), the rows
-- are copied, and only then are the keys, indexes and foreign keys built: one pass each instead of a
-- check per row. A view's key becomes (id, started_at) and the step rows carry the started_at of their
-- view. A partitioned table cannot have a unique key on session_id alone: the session row keeps its view
-- (viewer_sessions.view_id), and the leads lose their foreign key to views (the retention clears it).
ALTER TABLE "leads" DROP CONSTRAINT "leads_view_id_views_id_fk";--> statement-breakpoint
ALTER TABLE "view_steps" DROP CONSTRAINT "view_steps_view_id_views_id_fk";--> statement-breakpoint
ALTER TABLE "view_steps" DROP CONSTRAINT "view_steps_view_id_step_number_pk";--> statement-breakpoint
ALTER TABLE "view_steps" RENAME TO "view_steps_unpartitioned";--> statement-breakpoint
ALTER TABLE "views" DROP CONSTRAINT "views_pkey";--> statement-breakpoint
ALTER TABLE "views" DROP CONSTRAINT "views_session_id_unique";--> statement-breakpoint
DROP INDEX "views_arm_idx";--> statement-breakpoint
DROP INDEX "views_demo_email_idx";--> statement-breakpoint
DROP INDEX "views_demo_started_idx";--> statement-breakpoint
DROP INDEX "views_workspace_email_idx";--> statement-breakpoint
ALTER TABLE "views" RENAME TO "views_unpartitioned";--> statement-breakpoint
CREATE TABLE "views" (
	"id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"demo_id" text NOT NULL,
	"share_id" text,
	"session_id" text,
	"viewer_email" text,
	"viewer_name" text,
	"anonymous_id" text,
	"steps_viewed" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"current_step" integer DEFAULT 1 NOT NULL,
	"completed" boolean DEFAULT false NOT NULL,
	"completed_at" timestamp with time zone,
	"duration_seconds" double precision DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"last_activity_at" timestamp with time zone NOT NULL,
	"referrer" text,
	"user_agent" text,
	"version" integer,
	"internal" boolean DEFAULT false NOT NULL,
	"company" text,
	"chapter_id" text,
	"path_marks" text[] DEFAULT '{}'::text[] NOT NULL,
	"arm_id" text
) PARTITION BY RANGE ("started_at");--> statement-breakpoint
CREATE TABLE "view_steps" (
	"view_id" text NOT NULL,
	"view_started_at" timestamp with time zone NOT NULL,
	"step_number" integer NOT NULL,
	"seconds" double precision DEFAULT 0 NOT NULL,
	"first_reached_at" timestamp with time zone NOT NULL
) PARTITION BY RANGE ("view_started_at");--> statement-breakpoint
CREATE TABLE "views_default" PARTITION OF "views" DEFAULT;--> statement-breakpoint
CREATE TABLE "view_steps_default" PARTITION OF "view_steps" DEFAULT;--> statement-breakpoint
DO $$
DECLARE
	first_month timestamp;
	month timestamp;
BEGIN
	SELECT date_trunc('month', coalesce(min("started_at"), now()) AT TIME ZONE 'UTC') INTO first_month FROM "views_unpartitioned";
	FOR month IN SELECT generate_series(first_month, date_trunc('month', now() AT TIME ZONE 'UTC') + interval '2 months', interval '1 month') LOOP
		EXECUTE format('CREATE TABLE %I PARTITION OF "views" FOR VALUES FROM (%L) TO (%L)',
			'views_p' || to_char(month, 'YYYYMM'), to_char(month, 'YYYY-MM-DD') || ' 00:00:00+00',
			to_char(month + interval '1 month', 'YYYY-MM-DD') || ' 00:00:00+00');
		EXECUTE format('CREATE TABLE %I PARTITION OF "view_steps" FOR VALUES FROM (%L) TO (%L)',
			'view_steps_p' || to_char(month, 'YYYYMM'), to_char(month, 'YYYY-MM-DD') || ' 00:00:00+00',
			to_char(month + interval '1 month', 'YYYY-MM-DD') || ' 00:00:00+00');
	END LOOP;
END
$$;--> statement-breakpoint
INSERT INTO "views" SELECT "id", "workspace_id", "demo_id", "share_id", "session_id", "viewer_email", "viewer_name", "anonymous_id",
	"steps_viewed", "current_step", "completed", "completed_at", "duration_seconds", "started_at", "last_activity_at", "referrer",
	"user_agent", "version", "internal", "company", "chapter_id", "path_marks", "arm_id"
FROM "views_unpartitioned";--> statement-breakpoint
INSERT INTO "view_steps" SELECT s."view_id", v."started_at", s."step_number", s."seconds", s."first_reached_at"
FROM "view_steps_unpartitioned" s JOIN "views_unpartitioned" v ON v."id" = s."view_id";--> statement-breakpoint
ALTER TABLE "viewer_sessions" ADD COLUMN "view_id" text;--> statement-breakpoint
ALTER TABLE "viewer_sessions" ADD COLUMN "view_started_at" timestamp with time zone;--> statement-breakpoint
UPDATE "viewer_sessions" s SET "view_id" = v."id", "view_started_at" = v."started_at"
FROM "views_unpartitioned" v WHERE v."session_id" = s."id";--> statement-breakpoint
DROP TABLE "view_steps_unpartitioned";--> statement-breakpoint
DROP TABLE "views_unpartitioned";--> statement-breakpoint
ALTER TABLE "views" ADD CONSTRAINT "views_id_started_at_pk" PRIMARY KEY("id","started_at");--> statement-breakpoint
ALTER TABLE "view_steps" ADD CONSTRAINT "view_steps_view_id_view_started_at_step_number_pk" PRIMARY KEY("view_id","view_started_at","step_number");--> statement-breakpoint
CREATE INDEX "views_arm_idx" ON "views" USING btree ("arm_id") WHERE arm_id is not null;--> statement-breakpoint
CREATE INDEX "views_demo_started_idx" ON "views" USING btree ("demo_id","started_at","id");--> statement-breakpoint
CREATE INDEX "views_demo_email_idx" ON "views" USING btree ("demo_id","viewer_email");--> statement-breakpoint
CREATE INDEX "views_workspace_email_idx" ON "views" USING btree ("workspace_id","viewer_email");--> statement-breakpoint
CREATE INDEX "views_session_idx" ON "views" USING btree ("session_id");--> statement-breakpoint
ALTER TABLE "views" ADD CONSTRAINT "views_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "views" ADD CONSTRAINT "views_demo_id_demos_id_fk" FOREIGN KEY ("demo_id") REFERENCES "public"."demos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "views" ADD CONSTRAINT "views_share_id_shares_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."shares"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "views" ADD CONSTRAINT "views_session_id_viewer_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."viewer_sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "view_steps" ADD CONSTRAINT "view_steps_view_id_view_started_at_views_id_started_at_fk" FOREIGN KEY ("view_id","view_started_at") REFERENCES "public"."views"("id","started_at") ON DELETE cascade ON UPDATE no action;
