CREATE TABLE "share_access_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"share_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"decision" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"ip" text,
	"user_agent" text,
	"viewer_email" text,
	"viewer_name" text
);
--> statement-breakpoint
CREATE TABLE "shares" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"demo_id" text NOT NULL,
	"token" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"password_hash" text,
	"password_version" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone,
	"require_identification" boolean DEFAULT false NOT NULL,
	"allowed_emails" text[] DEFAULT '{}'::text[] NOT NULL,
	"allowed_domains" text[] DEFAULT '{}'::text[] NOT NULL,
	"view_count" integer DEFAULT 0 NOT NULL,
	"last_viewed_at" timestamp with time zone,
	"created_by_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "shares_token_unique" UNIQUE("token")
);
--> statement-breakpoint
CREATE TABLE "viewer_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"share_id" text NOT NULL,
	"demo_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"password_version" integer,
	"viewer_name" text,
	"viewer_email" text,
	"anonymous_id" text NOT NULL,
	"referrer" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "demo_daily_stats" (
	"demo_id" text NOT NULL,
	"day" date NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"completions" integer DEFAULT 0 NOT NULL,
	"duration_seconds" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "demo_daily_stats_demo_id_day_pk" PRIMARY KEY("demo_id","day")
);
--> statement-breakpoint
CREATE TABLE "demo_step_daily_stats" (
	"demo_id" text NOT NULL,
	"day" date NOT NULL,
	"step_number" integer NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"seconds" double precision DEFAULT 0 NOT NULL,
	"ended_here" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "demo_step_daily_stats_demo_id_day_step_number_pk" PRIMARY KEY("demo_id","day","step_number")
);
--> statement-breakpoint
CREATE TABLE "ingested_events" (
	"session_id" text NOT NULL,
	"event_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "ingested_events_session_id_event_id_pk" PRIMARY KEY("session_id","event_id")
);
--> statement-breakpoint
CREATE TABLE "view_steps" (
	"view_id" text NOT NULL,
	"step_number" integer NOT NULL,
	"seconds" double precision DEFAULT 0 NOT NULL,
	"first_reached_at" timestamp with time zone NOT NULL,
	CONSTRAINT "view_steps_view_id_step_number_pk" PRIMARY KEY("view_id","step_number")
);
--> statement-breakpoint
CREATE TABLE "views" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"demo_id" text NOT NULL,
	"share_id" text,
	"session_id" text,
	"viewer_email" text,
	"viewer_name" text,
	"anonymous_id" text,
	"steps_viewed" integer[] DEFAULT '{}' NOT NULL,
	"current_step" integer DEFAULT 1 NOT NULL,
	"completed" boolean DEFAULT false NOT NULL,
	"completed_at" timestamp with time zone,
	"duration_seconds" double precision DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"last_activity_at" timestamp with time zone NOT NULL,
	"referrer" text,
	"user_agent" text,
	CONSTRAINT "views_session_id_unique" UNIQUE("session_id")
);
--> statement-breakpoint
ALTER TABLE "share_access_log" ADD CONSTRAINT "share_access_log_share_id_shares_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."shares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shares" ADD CONSTRAINT "shares_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shares" ADD CONSTRAINT "shares_demo_id_demos_id_fk" FOREIGN KEY ("demo_id") REFERENCES "public"."demos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shares" ADD CONSTRAINT "shares_created_by_id_members_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "viewer_sessions" ADD CONSTRAINT "viewer_sessions_share_id_shares_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."shares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "viewer_sessions" ADD CONSTRAINT "viewer_sessions_demo_id_demos_id_fk" FOREIGN KEY ("demo_id") REFERENCES "public"."demos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "demo_daily_stats" ADD CONSTRAINT "demo_daily_stats_demo_id_demos_id_fk" FOREIGN KEY ("demo_id") REFERENCES "public"."demos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "demo_step_daily_stats" ADD CONSTRAINT "demo_step_daily_stats_demo_id_demos_id_fk" FOREIGN KEY ("demo_id") REFERENCES "public"."demos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ingested_events" ADD CONSTRAINT "ingested_events_session_id_viewer_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."viewer_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "view_steps" ADD CONSTRAINT "view_steps_view_id_views_id_fk" FOREIGN KEY ("view_id") REFERENCES "public"."views"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "views" ADD CONSTRAINT "views_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "views" ADD CONSTRAINT "views_demo_id_demos_id_fk" FOREIGN KEY ("demo_id") REFERENCES "public"."demos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "views" ADD CONSTRAINT "views_share_id_shares_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."shares"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "views" ADD CONSTRAINT "views_session_id_viewer_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."viewer_sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "share_access_log_share_idx" ON "share_access_log" USING btree ("share_id","at");--> statement-breakpoint
CREATE INDEX "shares_demo_idx" ON "shares" USING btree ("demo_id","created_at");--> statement-breakpoint
CREATE INDEX "viewer_sessions_share_idx" ON "viewer_sessions" USING btree ("share_id");--> statement-breakpoint
CREATE INDEX "views_demo_started_idx" ON "views" USING btree ("demo_id","started_at");--> statement-breakpoint
CREATE INDEX "views_demo_email_idx" ON "views" USING btree ("demo_id","viewer_email");