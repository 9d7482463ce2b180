CREATE TABLE "leads" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"demo_id" text NOT NULL,
	"share_id" text,
	"session_id" text,
	"view_id" text,
	"version" integer,
	"step_number" integer NOT NULL,
	"step_id" text NOT NULL,
	"client_id" uuid NOT NULL,
	"email" text,
	"name" text,
	"values" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"identified" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_demo_id_demos_id_fk" FOREIGN KEY ("demo_id") REFERENCES "public"."demos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_share_id_shares_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."shares"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_session_id_viewer_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."viewer_sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_view_id_views_id_fk" FOREIGN KEY ("view_id") REFERENCES "public"."views"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "leads_session_client_idx" ON "leads" USING btree ("session_id","client_id");--> statement-breakpoint
CREATE INDEX "leads_workspace_created_idx" ON "leads" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "leads_demo_created_idx" ON "leads" USING btree ("demo_id","created_at");--> statement-breakpoint
CREATE INDEX "leads_share_idx" ON "leads" USING btree ("share_id");--> statement-breakpoint
CREATE INDEX "leads_email_idx" ON "leads" USING btree ("workspace_id","email");