CREATE TABLE "demo_renders" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"demo_id" text NOT NULL,
	"version" integer NOT NULL,
	"format" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"pace_ms" integer NOT NULL,
	"fps" integer NOT NULL,
	"step_count" integer NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"progress" real DEFAULT 0 NOT NULL,
	"error" text,
	"output" "bytea",
	"output_bytes" integer,
	"duration_ms" integer,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "demo_renders" ADD CONSTRAINT "demo_renders_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "demo_renders" ADD CONSTRAINT "demo_renders_demo_id_demos_id_fk" FOREIGN KEY ("demo_id") REFERENCES "public"."demos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "demo_renders_demo_created_idx" ON "demo_renders" USING btree ("demo_id","created_at");--> statement-breakpoint
CREATE INDEX "demo_renders_status_idx" ON "demo_renders" USING btree ("status");