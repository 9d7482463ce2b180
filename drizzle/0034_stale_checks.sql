CREATE TABLE "demo_check_captures" (
	"check_id" text NOT NULL,
	"step_id" text NOT NULL,
	"demo_id" text NOT NULL,
	"image" "bytea",
	"html" text,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"boxes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"baseline" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "demo_check_schedules" (
	"demo_id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"interval" text NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL,
	"last_run_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "demo_checks" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"demo_id" text NOT NULL,
	"status" text NOT NULL,
	"trigger" text NOT NULL,
	"capture_mode" text,
	"image_threshold" double precision NOT NULL,
	"box_threshold_px" integer NOT NULL,
	"drift" boolean,
	"results" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "step_check_baselines" (
	"step_id" text PRIMARY KEY NOT NULL,
	"demo_id" text NOT NULL,
	"baseline" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "demo_check_captures" ADD CONSTRAINT "demo_check_captures_check_id_demo_checks_id_fk" FOREIGN KEY ("check_id") REFERENCES "public"."demo_checks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "demo_check_captures" ADD CONSTRAINT "demo_check_captures_step_id_steps_id_fk" FOREIGN KEY ("step_id") REFERENCES "public"."steps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "demo_check_captures" ADD CONSTRAINT "demo_check_captures_demo_id_demos_id_fk" FOREIGN KEY ("demo_id") REFERENCES "public"."demos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "demo_check_schedules" ADD CONSTRAINT "demo_check_schedules_demo_id_demos_id_fk" FOREIGN KEY ("demo_id") REFERENCES "public"."demos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "demo_check_schedules" ADD CONSTRAINT "demo_check_schedules_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "demo_checks" ADD CONSTRAINT "demo_checks_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "demo_checks" ADD CONSTRAINT "demo_checks_demo_id_demos_id_fk" FOREIGN KEY ("demo_id") REFERENCES "public"."demos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "step_check_baselines" ADD CONSTRAINT "step_check_baselines_step_id_steps_id_fk" FOREIGN KEY ("step_id") REFERENCES "public"."steps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "step_check_baselines" ADD CONSTRAINT "step_check_baselines_demo_id_demos_id_fk" FOREIGN KEY ("demo_id") REFERENCES "public"."demos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "demo_check_captures_check_idx" ON "demo_check_captures" USING btree ("check_id","step_id");--> statement-breakpoint
CREATE INDEX "demo_check_captures_demo_idx" ON "demo_check_captures" USING btree ("demo_id");--> statement-breakpoint
CREATE INDEX "demo_check_schedules_next_idx" ON "demo_check_schedules" USING btree ("next_run_at");--> statement-breakpoint
CREATE INDEX "demo_checks_demo_created_idx" ON "demo_checks" USING btree ("demo_id","created_at");--> statement-breakpoint
CREATE INDEX "demo_checks_status_idx" ON "demo_checks" USING btree ("status");